// Every Spanish message, shared and per panel, in one table: for the tests and tools
// that want all of it. The page fetches es/core.js and each shown panel's own.

import { messages as core } from './es/core.js';
import { messages as tiles } from './es/tiles.js';
import { messages as scan } from './es/scan.js';
import { messages as atomic } from './es/atomic.js';
import { messages as order } from './es/order.js';
import { messages as bench } from './es/bench.js';

export const es = { ...core, ...tiles, ...scan, ...atomic, ...order, ...bench };
