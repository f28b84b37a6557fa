// Secrets of the registry: random ids and secrets, the slow hash of client secrets (scrypt), the
// fast hash of high-entropy maintenance tokens (SHA-256) and the sealing of one-time links.
// Every comparison is constant-time.
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  hkdfSync,
  randomBytes,
  scrypt,
  timingSafeEqual,
} from 'node:crypto';

const SCRYPT = { N: 16384, r: 8, p: 1, keyLength: 32 } as const;

function scryptAsync(
  secret: string,
  salt: Buffer,
  params: { N: number; r: number; p: number; keyLength: number },
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      secret,
      salt,
      params.keyLength,
      { N: params.N, r: params.r, p: params.p, maxmem: 64 * 1024 * 1024 },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

/** `scrypt$N$r$p$salt$hash` (base64url parts). */
export async function hashClientSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(secret, salt, SCRYPT);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * A well-formed hash with the same scrypt parameters as every stored one, matching no secret
 * anyone knows: the token endpoint verifies against it when the client is unknown or has no
 * secret, so every failed authentication costs one scrypt (no timing tells ids apart).
 */
export const DUMMY_CLIENT_SECRET_HASH = [
  'scrypt',
  SCRYPT.N,
  SCRYPT.r,
  SCRYPT.p,
  'ZHVtbXktc2FsdC0xNmJ5dA',
  'bm8gc2VjcmV0IGhhcyB0aGlzIGhhc2gsIDMyIGJ5dGU',
].join('$');

/** Compares by scrypt in constant time; false for a malformed stored value (after the same scrypt). */
export async function verifyClientSecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash)
    return verifyClientSecret(secret, DUMMY_CLIENT_SECRET_HASH).then(() => false);
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scryptAsync(secret, Buffer.from(salt, 'base64url'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    keyLength: expected.length,
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A client id shaped like Cognito's: 26 lowercase letters and digits. */
export function newClientId(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from(randomBytes(26), (b) => alphabet[b % alphabet.length]).join('');
}

export function newClientSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

const TOKEN_PATTERN = /^mnt_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

/** A maintenance token `mnt_<tokenId>_<secret>`: the id finds the record, the whole token is hashed. */
export function newMaintenanceToken(): { tokenId: string; token: string } {
  const tokenId = randomBytes(8).toString('hex');
  return { tokenId, token: `mnt_${tokenId}_${randomBytes(32).toString('base64url')}` };
}

/** The token id of a well-formed maintenance token, else undefined. */
export function maintenanceTokenId(token: string): string | undefined {
  return TOKEN_PATTERN.exec(token)?.[1];
}

export function newLinkId(): string {
  return randomBytes(24).toString('base64url');
}

function linkKey(linkId: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(linkId, 'utf8'), Buffer.alloc(0), 'insights token link', 32));
}

/** Encrypts the token with a key only the link id gives (AES-256-GCM). */
export function sealToken(token: string, linkId: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', linkKey(linkId), iv);
  const body = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
}

/** @throws Error when the sealed value was not made with this link id. */
export function unsealToken(sealed: string, linkId: string): string {
  const raw = Buffer.from(sealed, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', linkKey(linkId), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(raw.length - 16));
  return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString('utf8');
}
