// The words of the README and the reports, each linked to its entry in docs/glossary.md.

/** The glossary, from the checkout's root. */
export const GLOSSARY = 'docs/glossary.md';
/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
export const anchorOf = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-');
/** A word linked to its glossary entry. */
export const term = (word: string, heading = word) => `[${word}](${GLOSSARY}#${anchorOf(heading)})`;
