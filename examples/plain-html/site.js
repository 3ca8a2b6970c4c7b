// Hearing back from the element: its events carry the result.
const demo = document.getElementById('demo');
demo.addEventListener('result', (e) => {
  const { method, count, instanceCount, hash, backend } = e.detail;
  document.getElementById('said').textContent = `The element says: ${method} on the ${backend} found ${count} visible (instanceCount ${instanceCount}, hash ${hash.toString(16)}).`;
});
