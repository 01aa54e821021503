/**
 * domhandler's Element and Text, made without their constructors. domhandler declares its node fields as class
 * fields, which V8 initialises with one defining store at a time through every level of Node → NodeWithChildren →
 * Element; a page has hundreds of thousands of nodes, and building them that way was most of what the rules' DOM
 * added to the page's parse (bench/rules.ts, issue 12). These constructors make the same objects with plain
 * assignments: domhandler's own prototype (its getters, `instanceof`, `cloneNode`) and its own properties, in its
 * order. tests/rules/dom.test.ts fails if a domhandler upgrade adds or reorders a field.
 */
import { Element, Text, type ChildNode, type ParentNode } from 'domhandler';
import { ElementType } from 'htmlparser2';

type Attribs = Record<string, string>;

interface Linked {
  parent: ParentNode | null;
  prev: ChildNode | null;
  next: ChildNode | null;
  startIndex: number | null;
  endIndex: number | null;
}

interface ElementFields extends Linked {
  children: ChildNode[];
  name: string;
  attribs: Attribs;
  type: Element['type'];
  namespace?: string | undefined;
  'x-attribsNamespace'?: Record<string, string> | undefined;
  'x-attribsPrefix'?: Record<string, string> | undefined;
}

interface TextFields extends Linked {
  data: string;
  type: Text['type'];
}

// Function constructors: a class's prototype cannot be replaced, and `extends` would run domhandler's initialisers.
const PlainElement = function (this: ElementFields, name: string, attribs: Attribs): void {
  this.parent = null;
  this.prev = null;
  this.next = null;
  this.startIndex = null;
  this.endIndex = null;
  this.children = [];
  this.name = name;
  this.attribs = attribs;
  // What domhandler's Element gives outside XML mode.
  this.type = name === 'script' ? ElementType.Script : name === 'style' ? ElementType.Style : ElementType.Tag;
  this.namespace = undefined;
  this['x-attribsNamespace'] = undefined;
  this['x-attribsPrefix'] = undefined;
} as unknown as { new (name: string, attribs: Attribs): Element; prototype: Element };
PlainElement.prototype = Element.prototype;

const PlainText = function (this: TextFields, data: string): void {
  this.parent = null;
  this.prev = null;
  this.next = null;
  this.startIndex = null;
  this.endIndex = null;
  this.data = data;
  this.type = ElementType.Text;
} as unknown as { new (data: string): Text; prototype: Text };
PlainText.prototype = Text.prototype;

/** `new Element(name, attribs)`, as domhandler makes it for an HTML parse. */
export const newElement = (name: string, attribs: Attribs): Element => new PlainElement(name, attribs);

/** `new Text(data)`. */
export const newText = (data: string): Text => new PlainText(data);
