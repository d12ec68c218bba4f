// Escaping for the XML and HTML the reports write. Text from a run can come
// from a hostile server: besides markup characters, characters XML 1.0 does
// not allow at all (most C0 controls, lone surrogates, U+FFFE/U+FFFF) are
// replaced, so junit.xml always parses.

const NOT_XML_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function escapeXml(text: string): string {
  return text
    .replace(NOT_XML_CHAR, '\uFFFD')
    .replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
