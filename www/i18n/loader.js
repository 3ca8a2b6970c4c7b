// The loader's own words (www/loader/), in every language of www/i18n/: the
// placeholder and the poster show them before any table is downloaded.

export const LOADER_MESSAGES = {
  en: {
    loading: 'Loading the playground…',
    run: 'Run on your GPU',
    poster: '{n} flags, method {method}: the kernels load when you ask.',
    failed: 'The playground’s code did not load: {error}',
    retry: 'Try again',
  },
  es: {
    loading: 'Cargando el playground…',
    run: 'Ejecutar en tu GPU',
    poster: '{n} flags, método {method}: los kernels se cargan cuando lo pidas.',
    failed: 'El código del playground no se cargó: {error}',
    retry: 'Reintentar',
  },
};
