// Every English message, shared and per panel, in one table: for the tests and tools
// that want all of it. The page fetches en/core.js and each shown panel's own.

import { messages as core } from './en/core.js';
import { messages as tiles } from './en/tiles.js';
import { messages as scan } from './en/scan.js';
import { messages as atomic } from './en/atomic.js';
import { messages as order } from './en/order.js';
import { messages as bench } from './en/bench.js';

export const en = { ...core, ...tiles, ...scan, ...atomic, ...order, ...bench };
