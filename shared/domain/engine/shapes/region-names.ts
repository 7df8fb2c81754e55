/** Display names of the providers' regions (as their price lists write them); the code itself if unknown. */
import type { Provider } from './model';

const AWS_REGIONS: Readonly<Record<string, string>> = {
  'us-east-1': 'US East (N. Virginia)',
  'us-east-2': 'US East (Ohio)',
  'us-west-1': 'US West (N. California)',
  'us-west-2': 'US West (Oregon)',
  'af-south-1': 'Africa (Cape Town)',
  'ap-east-1': 'Asia Pacific (Hong Kong)',
  'ap-south-1': 'Asia Pacific (Mumbai)',
  'ap-northeast-1': 'Asia Pacific (Tokyo)',
  'ap-northeast-2': 'Asia Pacific (Seoul)',
  'ap-northeast-3': 'Asia Pacific (Osaka)',
  'ap-southeast-1': 'Asia Pacific (Singapore)',
  'ap-southeast-2': 'Asia Pacific (Sydney)',
  'ca-central-1': 'Canada (Central)',
  'eu-central-1': 'EU (Frankfurt)',
  'eu-west-1': 'EU (Ireland)',
  'eu-west-2': 'EU (London)',
  'eu-west-3': 'EU (Paris)',
  'eu-north-1': 'EU (Stockholm)',
  'eu-south-1': 'EU (Milan)',
  'me-south-1': 'Middle East (Bahrain)',
  'sa-east-1': 'South America (Sao Paulo)',
};

const AZURE_REGIONS: Readonly<Record<string, string>> = {
  eastus: 'East US',
  eastus2: 'East US 2',
  centralus: 'Central US',
  northcentralus: 'North Central US',
  southcentralus: 'South Central US',
  westus: 'West US',
  westus2: 'West US 2',
  westus3: 'West US 3',
  canadacentral: 'Canada Central',
  brazilsouth: 'Brazil South',
  northeurope: 'North Europe',
  westeurope: 'West Europe',
  uksouth: 'UK South',
  francecentral: 'France Central',
  germanywestcentral: 'Germany West Central',
  swedencentral: 'Sweden Central',
  southeastasia: 'Southeast Asia',
  eastasia: 'East Asia',
  japaneast: 'Japan East',
  australiaeast: 'Australia East',
  centralindia: 'Central India',
};

const GCP_REGIONS: Readonly<Record<string, string>> = {
  'us-central1': 'Iowa',
  'us-east1': 'South Carolina',
  'us-east4': 'Northern Virginia',
  'us-west1': 'Oregon',
  'us-west2': 'Los Angeles',
  'northamerica-northeast1': 'Montreal',
  'southamerica-east1': 'Sao Paulo',
  'europe-west1': 'Belgium',
  'europe-west2': 'London',
  'europe-west3': 'Frankfurt',
  'europe-west4': 'Netherlands',
  'europe-north1': 'Finland',
  'asia-east1': 'Taiwan',
  'asia-northeast1': 'Tokyo',
  'asia-southeast1': 'Singapore',
  'asia-south1': 'Mumbai',
  'australia-southeast1': 'Sydney',
};

const TABLES: Readonly<Record<Provider, Readonly<Record<string, string>>>> = {
  aws: AWS_REGIONS,
  azure: AZURE_REGIONS,
  gcp: GCP_REGIONS,
};

export function fullRegionName(provider: Provider, region: string): string {
  return TABLES[provider][region] ?? region;
}
