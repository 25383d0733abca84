import type { ReactNode } from 'react';

/** A line of the text with its line number, the key of what it becomes. */
interface Line {
  at: number;
  text: string;
}

/**
 * The plain text of a legal page as headings, paragraphs and lists: a line starting with `# `
 * is a heading, lines starting with `- ` make a list, a blank line ends a paragraph. Every
 * piece is a React text node, so nothing the admin types is ever read as HTML.
 */
export function LegalText({ text }: { text: string }) {
  const out: ReactNode[] = [];
  let paragraph: Line[] = [];
  let items: Line[] = [];
  const flush = () => {
    const first = paragraph[0];
    if (first) {
      out.push(
        <p key={`p${first.at}`}>
          {paragraph.map((line) => (
            // a single line break inside a paragraph is kept as one
            <span key={line.at}>
              {line.at !== first.at && <br />}
              {line.text}
            </span>
          ))}
        </p>,
      );
    }
    const firstItem = items[0];
    if (firstItem) {
      out.push(
        <ul key={`u${firstItem.at}`}>
          {items.map((item) => (
            <li key={item.at}>{item.text}</li>
          ))}
        </ul>,
      );
    }
    paragraph = [];
    items = [];
  };
  const lines = text.split('\n');
  for (let at = 0; at < lines.length; at++) {
    const line = (lines[at] ?? '').trim();
    if (line === '') flush();
    else if (line.startsWith('# ')) {
      flush();
      out.push(<h2 key={`h${at}`}>{line.slice(2).trim()}</h2>);
    } else if (line.startsWith('- ')) {
      if (paragraph.length) flush();
      items.push({ at, text: line.slice(2).trim() });
    } else {
      if (items.length) flush();
      paragraph.push({ at, text: line });
    }
  }
  flush();
  return <div className="legal-text">{out}</div>;
}
