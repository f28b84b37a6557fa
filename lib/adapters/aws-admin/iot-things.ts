// DeployedThings on AWS IoT Core: the thing (named by the agentId), a new key pair and active
// certificate, the stage's agent policy on the certificate, and the certificate attached to this
// thing only (EXCLUSIVE_THING), so that policy variables name exactly this agent.
import type { IoTClient } from '@aws-sdk/client-iot';
import {
  AttachPolicyCommand,
  AttachThingPrincipalCommand,
  CreateKeysAndCertificateCommand,
  CreateThingCommand,
  DescribeEndpointCommand,
  type AttachThingPrincipalCommandInput,
  type CreateThingCommandInput,
} from '@aws-sdk/client-iot';
import type { DeployedThings } from '../../registry/deployed';

export function thingRequest(thingName: string, customerId: string): CreateThingCommandInput {
  return { thingName, attributePayload: { attributes: { customer: customerId } } };
}

export function attachRequest(thingName: string, certificateArn: string): AttachThingPrincipalCommandInput {
  return { thingName, principal: certificateArn, thingPrincipalType: 'EXCLUSIVE_THING' };
}

export function iotThings(policyName: string, client: IoTClient): DeployedThings {
  return {
    async createThing({ thingName, customerId }) {
      const thing = await client.send(new CreateThingCommand(thingRequest(thingName, customerId)));
      const cert = await client.send(new CreateKeysAndCertificateCommand({ setAsActive: true }));
      if (!cert.certificateArn || !cert.certificateId || !cert.certificatePem || !cert.keyPair?.PrivateKey)
        throw new Error('IoT Core returned an incomplete certificate');
      await client.send(new AttachPolicyCommand({ policyName, target: cert.certificateArn }));
      await client.send(new AttachThingPrincipalCommand(attachRequest(thingName, cert.certificateArn)));
      const endpoint = await client.send(new DescribeEndpointCommand({ endpointType: 'iot:Data-ATS' }));
      return {
        thingName,
        thingArn: thing.thingArn ?? '',
        certificateId: cert.certificateId,
        certificateArn: cert.certificateArn,
        certificatePem: cert.certificatePem,
        privateKey: cert.keyPair.PrivateKey,
        endpoint: endpoint.endpointAddress ?? '',
      };
    },
  };
}
