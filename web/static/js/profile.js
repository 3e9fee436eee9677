// Profile page: set a password (owning browser) or log in with it (another device).
// The server answers with a ready-to-show message in the page's language.

import { scriptReady } from './dom.js';

async function post(url, body) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    credentials: 'same-origin',
    body: JSON.stringify(body),
  });
  let data = {};
  try { data = await res.json(); } catch { /* empty body */ }
  let message = data.message;
  if (!res.ok) {
    // Errors are {code, message (French), message_en}: show the page's language.
    const english = document.documentElement.lang === 'en';
    message = (english && data.message_en) || data.message || res.statusText;
  }
  return { ok: res.ok, message };
}

function wire(formId, resultId, url, bodyOf, onOk) {
  const form = document.getElementById(formId);
  const result = document.getElementById(resultId);
  if (!form || !result) return;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const button = form.querySelector('button');
    button.disabled = true;
    try {
      const { ok, message } = await post(url(form), bodyOf(form));
      result.textContent = message || '';
      result.className = ok ? '' : 'error';
      if (ok) onOk(form);
    } catch (err) {
      result.textContent = String(err);
      result.className = 'error';
    } finally {
      button.disabled = false;
    }
  });
}

wire(
  'password-form', 'password-result',
  // The server writes the address: it percent-encodes the pseudo, and sends `.` and `..`
  // (which a browser would resolve in a path) as `?pseudo=`.
  (f) => f.dataset.url,
  (f) => ({ password: f.elements.password.value }),
  (f) => { f.reset(); },
);
wire(
  'login-form', 'login-result',
  () => '/api/profiles/login',
  (f) => ({ pseudo: f.dataset.pseudo, password: f.elements.password.value }),
  () => { setTimeout(() => window.location.reload(), 800); },
);
scriptReady();
