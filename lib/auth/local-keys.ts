// The local identity provider's RSA signing key: made on first use under AUTH_SIGNING_KEY_DIR and
// kept there, so tokens stay valid across restarts. Several functions may start at once: the key
// is written to a temporary file and hard-linked into place, so exactly one key wins and readers
// never see a partial file.
import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';

export interface SigningKey {
  readonly kid: string;
  readonly privateKey: CryptoKey;
  /** The public half as published on the JWKS route. */
  readonly publicJwk: JWK;
}

const FILE = 'signing-key.json';

async function createKeyFile(file: string): Promise<void> {
  const { privateKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(jwk);
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temporary, JSON.stringify({ ...jwk, kid, alg: 'RS256', use: 'sig' }), { mode: 0o600 });
  try {
    await link(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await rm(temporary, { force: true });
  }
}

async function readKeyFile(file: string): Promise<SigningKey> {
  const jwk = JSON.parse(await readFile(file, 'utf8')) as JWK & { kid: string };
  const privateKey = (await importJWK(jwk, 'RS256')) as CryptoKey;
  const { kty, n, e, kid } = jwk;
  return { kid, privateKey, publicJwk: { kty, n, e, kid, alg: 'RS256', use: 'sig' } };
}

const loaded = new Map<string, Promise<SigningKey>>();

/** The key of `dir`, made when missing. */
export function localSigningKey(dir: string): Promise<SigningKey> {
  const file = path.resolve(dir, FILE);
  let key = loaded.get(file);
  if (!key) {
    key = (async () => {
      await mkdir(path.dirname(file), { recursive: true });
      try {
        return await readKeyFile(file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        await createKeyFile(file);
        return readKeyFile(file);
      }
    })();
    key.catch(() => loaded.delete(file));
    loaded.set(file, key);
  }
  return key;
}
