/** The one workflow of tls.test.ts: its worker, polling through TLS, has to run it for the client to get the answer. */
export async function greeting(name: string): Promise<string> {
  return `hello ${name}`;
}
