/** The few DOM helpers the explorer's panels are built with. */

export const $ = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;

/** Tiny DOM builder: el('a', { class: 'node', onclick }, 'text', child). */
export function el(tag: string, attrs: Record<string, unknown> = {}, ...children: (Node | string | null | undefined)[]): HTMLElement {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') node.addEventListener(k.slice(2), v as EventListener);
    else if (k === 'class') node.className = String(v);
    else node.setAttribute(k, String(v));
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(typeof c === 'string' ? document.createTextNode(c) : c);
  return node;
}

/** Replace an element's children, skipping null/undefined placeholders. */
export function fill(target: HTMLElement, ...children: (Node | string | null | undefined)[]): void {
  target.replaceChildren(...children.filter((c): c is Node | string => c !== null && c !== undefined));
}
