// Small DOM helpers shared by every page: build elements without innerHTML.

/**
 * h("button", {class: "x", onclick: fn, dataset: {move: "end turn"}}, "text", child, ...)
 * Attributes whose value is null, undefined or false are left out; `text` sets the text.
 */
export function h(tag, attrs, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") element.className = value;
    else if (name === "text") element.textContent = value;
    else if (name === "dataset") Object.assign(element.dataset, value);
    else if (name === "style" && typeof value === "object") Object.assign(element.style, value);
    else if (name.startsWith("on") && typeof value === "function") {
      element.addEventListener(name.slice(2), value);
    } else if (value === true) element.setAttribute(name, "");
    else element.setAttribute(name, String(value));
  }
  append(element, children);
  return element;
}

export function append(parent, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
}

/** An inline SVG from a viewBox and path/shape markup of our own (never from the server). */
export function svg(viewBox, markup, attrs = {}) {
  const element = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  element.setAttribute("viewBox", viewBox);
  element.setAttribute("aria-hidden", "true");
  element.setAttribute("focusable", "false");
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, value);
  element.innerHTML = markup;
  return element;
}

/** el("span", "cls", "text"): the short form the game views build most elements with. */
export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

/** One SVG element (`circle`, `path`, ...) with its attributes. */
export function svgElement(tag, attrs) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  return node;
}

export function clear(element) {
  while (element.firstChild) element.firstChild.remove();
  return element;
}

/** "seat 1" -> "Seat 1"; keeps the rest of a sentence as the engine wrote it. */
export function capitalise(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

export function plural(count, noun, many = noun + "s") {
  return `${count} ${count === 1 ? noun : many}`;
}

/** Compare move texts as the server does: case and spacing do not matter. */
export function normalise(text) {
  return String(text).trim().split(/\s+/).join(" ").toLowerCase();
}

export function escapeHTML(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({
    "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;",
  })[c]);
}
