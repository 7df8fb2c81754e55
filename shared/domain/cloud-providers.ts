/** The clouds the service plans commitments for: the one list every layer reads. */
export const cloudProviders = ['aws', 'azure', 'gcp'] as const;
export type CloudProvider = (typeof cloudProviders)[number];
