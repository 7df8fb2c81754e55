/**
 * Stdout is the CLI's answer: one JSON object a script pipes into jq. Everything else a command
 * prints, the logs of the purchase processor it may run in this process included (they write to
 * stdout, as Lambda's log capture expects), goes to stderr.
 */
export interface AnswerOutput {
  /** Prints the answer (or the help) on stdout, resolved once written. */
  print(text: string): Promise<void>;
}

/** From now on, writes to stdout go to stderr; only `print` reaches stdout. */
export function reserveStdoutForAnswer(): AnswerOutput {
  const stdout = process.stdout;
  const writeAnswer = stdout.write.bind(stdout);
  stdout.write = process.stderr.write.bind(process.stderr) as typeof stdout.write;
  return {
    print: (text) =>
      new Promise((resolve, reject) => {
        writeAnswer(`${text}\n`, (error) => (error ? reject(error) : resolve()));
      }),
  };
}
