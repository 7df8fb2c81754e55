import { oauthClientRepository } from '../store/store';
import { awsFunctionContext } from './function-context';

/** The registration function on AWS: its repository on the service's table, built on the first invocation. */
export const awsOAuthRegistrationContext = awsFunctionContext({ oauthClients: oauthClientRepository });
