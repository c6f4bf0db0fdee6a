// Teardown's lightbox: opens gallery photos over the page. Zoom with the wheel, a pinch or a
// double tap; drag to pan; swipe or use the arrow keys to move between photos; Escape closes.
// Without this script the gallery links simply open each photo's page.
(() => {
  'use strict';
  const MAX_SCALE = 8;
  let dialog, stage, image, caption, pageLink, opener;
  let group = [], index = 0;
  let scale = 1, x = 0, y = 0;
  const pointers = new Map();
  let gesture = null, lastTap = { time: 0, x: 0, y: 0 };

  function build() {
    dialog = document.createElement('dialog');
    dialog.className = 'lightbox';
    dialog.setAttribute('aria-label', 'Photo viewer');
    dialog.innerHTML =
      '<div class="lightbox-stage"><img alt="" draggable="false"></div>' +
      '<p class="lightbox-caption" aria-live="polite"></p>' +
      '<div class="lightbox-controls">' +
      '<button type="button" data-action="previous" aria-label="Previous photo">‹</button>' +
      '<button type="button" data-action="out" aria-label="Zoom out">−</button>' +
      '<button type="button" data-action="in" aria-label="Zoom in">+</button>' +
      '<a class="lightbox-page">Photo page</a>' +
      '<button type="button" data-action="next" aria-label="Next photo">›</button>' +
      '<button type="button" data-action="close" aria-label="Close">×</button></div>';
    document.body.append(dialog);
    stage = dialog.querySelector('.lightbox-stage');
    image = stage.querySelector('img');
    caption = dialog.querySelector('.lightbox-caption');
    pageLink = dialog.querySelector('.lightbox-page');
    dialog.addEventListener('click', (event) => {
      const action = event.target.closest('[data-action]')?.dataset.action;
      if (action === 'previous') show(index - 1);
      else if (action === 'next') show(index + 1);
      else if (action === 'in') zoomAt(scale * 1.5, 0, 0);
      else if (action === 'out') zoomAt(scale / 1.5, 0, 0);
      else if (action === 'close') dialog.close();
    });
    dialog.addEventListener('keydown', onKey);
    dialog.addEventListener('close', () => { image.removeAttribute('src'); opener?.focus(); });
    stage.addEventListener('wheel', (event) => {
      event.preventDefault();
      const point = local(event);
      zoomAt(scale * Math.exp(-event.deltaY * 0.002), point.x, point.y);
    }, { passive: false });
    stage.addEventListener('pointerdown', onDown);
    stage.addEventListener('pointermove', onMove);
    stage.addEventListener('pointerup', onUp);
    stage.addEventListener('pointercancel', onUp);
  }

  // Each item: { image, width, height, alt, caption, page }.
  function open(items, start, from) {
    if (!dialog) build();
    group = items;
    opener = from;
    dialog.showModal();
    show(start);
    // The dialog would focus its first button, "previous", which the first photo disables: the
    // focus would fall back to the page and the arrow keys would do nothing.
    dialog.querySelector('[data-action="close"]').focus();
  }

  // A gallery link as an item: its picture, and the caption and credit of its figure.
  function item(link) {
    const figure = link.closest('figure');
    const text = ['.caption', '.credit'].map((name) => figure?.querySelector(name)?.textContent.trim())
      .filter(Boolean).join(' · ');
    const alt = link.querySelector('img')?.alt || '';
    return { image: link.dataset.lightbox, width: Number(link.dataset.width) || 0,
             height: Number(link.dataset.height) || 0, alt, caption: text || alt, page: link.href };
  }

  function show(next) {
    if (next < 0 || next >= group.length) return;
    index = next;
    const current = group[index];
    image.src = current.image;
    image.width = current.width || 0;
    image.height = current.height || 0;
    image.alt = current.alt || current.caption || '';
    caption.textContent = `${current.caption || ''} (${index + 1} of ${group.length})`;
    pageLink.href = current.page;
    dialog.querySelector('[data-action="previous"]').disabled = index === 0;
    dialog.querySelector('[data-action="next"]').disabled = index === group.length - 1;
    // Reaching either end disables the button that got there: keep the focus in the dialog.
    const focused = document.activeElement;
    if (dialog.open && (!dialog.contains(focused) || focused.disabled)) dialog.querySelector('[data-action="close"]').focus();
    reset();
  }

  function reset() { scale = 1; x = 0; y = 0; apply(); }

  function apply() {
    image.style.transform = `translate(${x}px, ${y}px) scale(${scale})`;
    stage.classList.toggle('zoomed', scale > 1);
  }

  // Zooms to `target` keeping the stage point (px, py), measured from its centre, in place.
  function zoomAt(target, px, py) {
    const next = Math.min(MAX_SCALE, Math.max(1, target));
    x = px - (px - x) * (next / scale);
    y = py - (py - y) * (next / scale);
    scale = next;
    if (scale === 1) { x = 0; y = 0; }
    apply();
  }

  function local(event) {
    const box = stage.getBoundingClientRect();
    return { x: event.clientX - box.left - box.width / 2, y: event.clientY - box.top - box.height / 2 };
  }

  function onDown(event) {
    stage.setPointerCapture(event.pointerId);
    pointers.set(event.pointerId, local(event));
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      gesture = { kind: 'pinch', distance: Math.hypot(a.x - b.x, a.y - b.y) || 1, scale };
    } else if (pointers.size === 1) {
      const point = pointers.get(event.pointerId);
      gesture = { kind: 'drag', start: point, last: point, x, y };
    }
  }

  function onMove(event) {
    if (!pointers.has(event.pointerId) || !gesture) return;
    pointers.set(event.pointerId, local(event));
    if (gesture.kind === 'pinch' && pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      const distance = Math.hypot(a.x - b.x, a.y - b.y);
      zoomAt(gesture.scale * distance / gesture.distance, (a.x + b.x) / 2, (a.y + b.y) / 2);
    } else if (gesture.kind === 'drag') {
      const point = pointers.get(event.pointerId);
      gesture.last = point;
      if (scale > 1) {
        x = gesture.x + point.x - gesture.start.x;
        y = gesture.y + point.y - gesture.start.y;
        apply();
      }
    }
  }

  function onUp(event) {
    if (!pointers.has(event.pointerId)) return;
    pointers.delete(event.pointerId);
    if (gesture?.kind === 'drag' && pointers.size === 0) {
      const dx = gesture.last.x - gesture.start.x, dy = gesture.last.y - gesture.start.y;
      if (scale === 1 && Math.abs(dx) > 60 && Math.abs(dx) > 2 * Math.abs(dy)) {
        show(index + (dx < 0 ? 1 : -1));
      } else if (Math.hypot(dx, dy) < 10) {
        const now = event.timeStamp, point = gesture.last;
        if (now - lastTap.time < 350 && Math.hypot(point.x - lastTap.x, point.y - lastTap.y) < 30) {
          zoomAt(scale > 1 ? 1 : 2.5, point.x, point.y);
          lastTap = { time: 0, x: 0, y: 0 };
        } else {
          lastTap = { time: now, x: point.x, y: point.y };
        }
      }
    }
    gesture = pointers.size === 1
      ? { kind: 'drag', start: [...pointers.values()][0], last: [...pointers.values()][0], x, y }
      : null;
  }

  function onKey(event) {
    if (event.key === 'ArrowLeft') show(index - 1);
    else if (event.key === 'ArrowRight') show(index + 1);
    else if (event.key === '+' || event.key === '=') zoomAt(scale * 1.5, 0, 0);
    else if (event.key === '-') zoomAt(scale / 1.5, 0, 0);
    else if (event.key === '0') reset();
    else if (event.key === 'Tab') {
      // A modal dialog already makes the page inert; this keeps Tab cycling inside it too.
      const focusable = [...dialog.querySelectorAll('button:not(:disabled), a[href]')];
      const first = focusable[0], last = focusable[focusable.length - 1];
      if (event.shiftKey && document.activeElement === first) { last.focus(); }
      else if (!event.shiftKey && document.activeElement === last) { first.focus(); }
      else return;
    } else return;
    event.preventDefault();
  }

  document.addEventListener('click', (event) => {
    const link = event.target.closest?.('a[data-lightbox]');
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (typeof HTMLDialogElement !== 'function') return;
    event.preventDefault();
    const links = Array.from(document.querySelectorAll('a[data-lightbox]'));
    open(links.map(item), links.indexOf(link), link);
  });

  // The machine view opens a part's photos from machine.json through this.
  window.teardownLightbox = {
    open(items, start = 0, from = document.activeElement) {
      if (typeof HTMLDialogElement !== 'function' || items.length === 0) return false;
      open(items, start, from);
      return true;
    },
  };
})();
