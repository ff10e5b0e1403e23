import type { components } from "./api";

type WebResponse = components["schemas"]["WebResponse"];
type Walker = components["schemas"]["Walker"];

export function describe(response: WebResponse): string[] {
  const lines: string[] = [];
  const item = response.item;
  if (item["@type"] !== "Redirection") {
    const title: string = item.title;
    lines.push(title);
  }
  const metaTitle: string = response.head.metaTitle;
  lines.push(metaTitle);
  for (const crumb of response.breadcrumbs.items) {
    const type: string = crumb["@type"];
    const title: string = crumb.title;
    lines.push(`${type}: ${title}`);
  }
  const visit = (walker: Walker): void => {
    const type: string = walker.item["@type"];
    const title: string = walker.item.title;
    lines.push(`${type}: ${title}`);
    walker.children.forEach(visit);
  };
  response.blocks.forEach(visit);
  return lines;
}
