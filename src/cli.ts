// The `manzil` command line: one entry for every way of running the product.
export async function runCli(args: string[]): Promise<number> {
  const [command = 'start'] = args;
  process.stderr.write(`manzil: "${command}" is not wired yet\n`);
  return 1;
}
