import type { MetaDescriptor } from "@remix-run/node";

/** A page's title, description and Open Graph tags (title under 60 characters, description under 160). */
export function pageMeta(title: string, description: string): MetaDescriptor[] {
  return [
    { title },
    { name: "description", content: description },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:type", content: "website" },
  ];
}
