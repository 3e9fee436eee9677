// Tiny DOM helpers: data always goes through textContent, never innerHTML.
export function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  if (attrs) {
    for (const [key, value] of Object.entries(attrs)) {
      if (value === undefined || value === null || value === false) continue;
      if (key === 'class') node.className = value;
      else if (key === 'text') node.textContent = value;
      else if (key === 'dataset') Object.assign(node.dataset, value);
      else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
      else if (value === true) node.setAttribute(key, '');
      else node.setAttribute(key, value);
    }
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Replace the children of `node`, keeping focus on an equivalent element when possible. */
export function replace(node, ...children) {
  const active = document.activeElement;
  const key = active && node.contains(active) ? active.dataset.focus : null;
  node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  if (key) {
    const again = node.querySelector(`[data-focus="${CSS.escape(key)}"]`);
    if (again && !again.disabled) again.focus({ preventScroll: true });
  }
}

let toastTimer = 0;
export function toast(message) {
  const box = document.getElementById('toast');
  if (!box) return;
  box.textContent = message;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, 4000);
}

// The submit buttons of forms this page's script handles start disabled in the HTML
// (`data-needs-js`): a press before the script has taken the form would submit it natively
// and reload the page. The page's module calls this once its handlers are in place.
export function scriptReady(root = document) {
  for (const button of root.querySelectorAll('[data-needs-js]')) button.disabled = false;
}
