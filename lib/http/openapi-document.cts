/**
 * docs/openapi.json as a module. A CommonJS file because the JSON must be bundled into the Lambda and read by Node 22
 * as is: an ES module needs the import attribute `with { type: 'json' }` (Node 22, TypeScript's NodeNext), which the
 * esbuild SST v2 bundles with (0.18) cannot parse; a CommonJS `require` needs none, and every tool reads it.
 */
import document = require('../../docs/openapi.json');
export = document;
