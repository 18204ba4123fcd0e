// Tiny DOM helpers. All text from data goes through textContent, never innerHTML.

export const SVG_NS = "http://www.w3.org/2000/svg";

/** An SVG element with attributes, appended to `parent` if given. */
export function svgEl(tag, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined && value !== false) node.setAttribute(name, String(value));
  }
  if (parent) parent.appendChild(node);
  return node;
}

/** An SVG <text> (or <title>) holding `text` as plain text. */
export function svgText(tag, attrs, text, parent = null) {
  const node = svgEl(tag, attrs, parent);
  node.textContent = text;
  return node;
}

/** An HTML element: el("li", {class: "x"}, "text", otherNode, ...). Strings become text nodes. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "dataset") Object.assign(node.dataset, value);
    else if (name.startsWith("on") && typeof value === "function") node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.appendChild(typeof child === "string" || typeof child === "number" ? document.createTextNode(String(child)) : child);
  }
  return node;
}

/** Replace all children of `node`. */
export function fill(node, ...children) {
  node.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
}
