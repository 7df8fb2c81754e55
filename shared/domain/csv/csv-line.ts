/** A line that is not a CSV record: an unclosed quote, or text after a closing quote. */
export class CsvSyntaxError extends Error {}

/**
 * Splits one CSV line into its fields (RFC 4180 without line breaks inside quoted fields): a
 * field is either bare text without quotes or enclosed in double quotes, where a comma is text
 * and `""` is one quote. Import files are read line by line, so a record must fit on one line.
 */
export function splitCsvLine(line: string): string[] {
  if (!line.includes('"')) return line.split(',');
  const fields: string[] = [];
  let at = 0;
  for (;;) {
    if (line[at] === '"') {
      let value = '';
      at += 1;
      for (;;) {
        const quote = line.indexOf('"', at);
        if (quote < 0) {
          throw new CsvSyntaxError(
            `field ${fields.length + 1} opens a quote that is not closed on its line (a field cannot span lines)`,
          );
        }
        value += line.slice(at, quote);
        at = quote + 1;
        if (line[at] !== '"') break;
        value += '"';
        at += 1;
      }
      fields.push(value);
      if (at === line.length) return fields;
      if (line[at] !== ',') {
        throw new CsvSyntaxError(`field ${fields.length} has text after its closing quote`);
      }
      at += 1;
    } else {
      const comma = line.indexOf(',', at);
      const value = line.slice(at, comma < 0 ? line.length : comma);
      if (value.includes('"')) {
        throw new CsvSyntaxError(
          `field ${fields.length + 1} has a quote inside unquoted text (quote the field and double the quote)`,
        );
      }
      fields.push(value);
      if (comma < 0) return fields;
      at = comma + 1;
    }
  }
}
