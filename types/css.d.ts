// The build (scripts/build-dist.mjs) inlines each .css file of www/ as text:
// `import css from './styles.css'` is a string, adopted as a constructable sheet.
declare module '*.css' {
  const text: string;
  export default text;
}
