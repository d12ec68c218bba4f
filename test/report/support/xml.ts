// A small well-formedness check for the XML the reports write (there is no
// XML parser among our dependencies; browser.test.ts also parses a real
// junit.xml with Chromium's DOMParser): balanced tags, quoted attributes,
// no stray "<", only known entities, only XML 1.0 characters.
const BARE_AMPERSAND = /&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);)/i;
const NOT_XML_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

export function xmlProblems(xml: string): string[] {
  const problems: string[] = [];
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const token = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[\w.-]+="[^"<]*")*)\s*(\/?)>|([^<]+)|(<)/g;
  const stack: string[] = [];
  let m: RegExpExecArray | null;
  while ((m = token.exec(body))) {
    const [, closing, name, attributes, selfClosing, text, stray] = m;
    if (stray) problems.push(`stray "<" at ${m.index}: ${body.slice(m.index, m.index + 40)}`);
    else if (text !== undefined) {
      if (BARE_AMPERSAND.test(text)) problems.push(`bare & in text at ${m.index}`);
    } else {
      if (attributes && BARE_AMPERSAND.test(attributes)) problems.push(`bare & in an attribute of <${name}>`);
      if (closing) {
        if (stack.pop() !== name) problems.push(`unbalanced </${name}> at ${m.index}`);
      } else if (!selfClosing) stack.push(name!);
    }
  }
  if (stack.length) problems.push(`unclosed: ${stack.join(', ')}`);
  if (NOT_XML_CHAR.test(xml)) problems.push('a character XML 1.0 does not allow');
  return problems;
}
