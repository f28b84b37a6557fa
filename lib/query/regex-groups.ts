// The capturing groups of a regular expression (RE2 syntax, as Kusto's): `(`, `(?P<name>` and
// `(?<name>`, not escaped and not inside a character class, in the order RE2 numbers them. Used
// where a query's own regex sits beside groups the compiler adds (parse kind=regex) or where its
// groups are chosen by number or name (extract_all's captureGroups).

/** Each capturing group's name, or undefined for an unnamed one; its number is its index + 1. */
export function captureGroupNames(regex: string): (string | undefined)[] {
  const names: (string | undefined)[] = [];
  let inClass = false;
  for (let i = 0; i < regex.length; i++) {
    const c = regex[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') {
      inClass = true;
      if (regex[i + 1] === '^') i++;
      if (regex[i + 1] === ']') i++; // a leading ] is a member
    } else if (c === '(') {
      if (regex[i + 1] !== '?') names.push(undefined);
      else {
        const named = /^\(\?P?<([A-Za-z_]\w*)>/.exec(regex.slice(i, i + 40));
        if (named) names.push(named[1]);
      }
    }
  }
  return names;
}

/**
 * Whether JavaScript's reading of an RE2 regex compiles: inline flag groups dropped, `(?P<name>`
 * written as `(?<name>` (the catalog's check of constant regexes before they reach an engine).
 */
export function compilesAsRegex(regex: string): boolean {
  try {
    new RegExp(regex.replace(/\(\?[a-zA-Z]+\)/g, '').replace(/\(\?P</g, '(?<'), 'u');
    return true;
  } catch {
    return false;
  }
}
