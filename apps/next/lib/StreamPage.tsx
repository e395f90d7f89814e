import { jsonText } from './stream';

// The page carries the contract body verbatim in a JSON script tag; the harness extracts it.
// "<" is escaped so the data can never close the tag (the JSON value is unchanged).
export async function StreamPage() {
  const body = await jsonText('ioredis');
  return (
    <main>
      <h1>OPTIONS:test:STREAM</h1>
      <script
        id="stream-json"
        type="application/json"
        // biome-ignore lint/security/noDangerouslySetInnerHtml: the JSON body, its '<' escaped, as data for the page
        dangerouslySetInnerHTML={{ __html: body.replaceAll('<', '\\u003c') }}
      />
    </main>
  );
}
