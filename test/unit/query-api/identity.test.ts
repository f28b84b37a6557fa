// The identity the query service gives current_principal() and current_database().
import { describe, expect, it } from 'vitest';
import { queryIdentity } from '../../../lib/query-api/identity';

describe('queryIdentity', () => {
  it("names an OAuth client app=<client id>;<customer id>, a plant token token=<id>;<customer id>, in the customer's database", () => {
    // Act
    const client = queryIdentity({ kind: 'jwt', customerId: 'acme', plantIds: [], allPlants: true, clientId: 'c1' });
    const token = queryIdentity({
      kind: 'plant-token',
      customerId: 'acme',
      plantIds: ['p1'],
      allPlants: false,
      tokenId: 't9',
    });
    // Assess
    expect(client).toEqual({ principal: 'app=c1;acme', database: 'acme' });
    expect(token).toEqual({ principal: 'token=t9;acme', database: 'acme' });
  });
});
