import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { unpackCatalog } from '../../../shared/domain/catalog/packed-data';
import { packedCatalogFileNames } from '../../../shared/domain/catalog/packed-files';

const dataFolder = new URL('../../../shared/domain/catalog/data/', import.meta.url);

describe('packed catalog data', () => {
  it('holds exactly the JSON files of the data folder (run `npm run catalog:pack` after editing one)', () => {
    // Prepare
    const onDisk = Object.fromEntries(
      packedCatalogFileNames.map((name) => [
        name,
        JSON.parse(readFileSync(new URL(name, dataFolder), 'utf8')),
      ]),
    );

    // Act
    const unpacked = unpackCatalog();

    // Assess
    expect(unpacked).toEqual(onDisk);
  });

  it('leaves out no data file of the folder: the Azure size table is packed with the rest', () => {
    // Prepare
    const jsonFiles = readdirSync(dataFolder).filter((name) => name.endsWith('.json'));

    // Act
    const unpacked = jsonFiles.filter(
      (name) => !(packedCatalogFileNames as readonly string[]).includes(name),
    );

    // Assess
    expect(unpacked).toEqual([]);
    expect(packedCatalogFileNames).toContain('azure-instance-size-flexibility.json');
  });
});
