// Why a method whose order depends on scheduling kept its order on this
// machine (the atomic view's verdict and the order panel's note say it).

import { isSoftwareAdapter } from '../../core/engine.js';
import { layout } from '../../core/layout.js';

/** Why an unordered method kept its order here, in `t`'s language. */
export function whyStable(t, backend, adapter, n) {
  if (backend === 'cpu') return t('stable.cpu');
  const size = n <= layout.atomicWorkgroup ? t('stable.oneGroup', { n }) : t('stable.size', { n });
  return isSoftwareAdapter(adapter) ? t('stable.software', { size }) : t('stable.gpu', { size });
}
