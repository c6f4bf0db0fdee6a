// Teardown's machine view: take a machine apart. Reads machine.json (written by the build)
// and replaces the assembled picture with its parts, each a button: tap or Tab to select,
// drag or use the arrow keys to move, Ctrl+wheel or pinch to zoom, Undo and Reset to put back.
// Without this script the page keeps the assembled machine and the list of parts.
(() => {
  'use strict';
  const OPAQUE_ALPHA = 32;        // the alpha from which a pixel belongs to a part, as in the build
  const TAP_SLOP = 4;             // screen pixels a press may wander and still be a tap
  const FINGER = 44;              // CSS pixels a fingertip covers, as the platforms' guidelines size targets
  const STEP = 10, BIG_STEP = 50; // canvas units an arrow key moves a part
  const UNDO_LEVELS = 100;
  const HALO_WIDTH = 3;            // screen pixels
  const HALO_COLOUR = '#e0201b';

  class MachineView {
    constructor(root, data, source) {
      this.root = root;
      this.data = data;
      this.storageKey = 'teardown-machine:' + new URL(data.page, source).pathname;
      this.parts = data.parts.map((part, order) => ({ ...part, order, dx: 0, dy: 0, alpha: undefined }));
      // Hit-testing goes top first: higher z, then later in the file.
      this.topFirst = [...this.parts].sort((a, b) => b.z - a.z || b.order - a.order);
      this.selected = null;
      // discussion.json: undefined while it loads, null when it could not be read.
      this.discussion = undefined;
      this.undoStack = [];
      this.view = { scale: 1, x: 0, y: 0 };
      this.pointers = new Map();
      this.gesture = null;
      this.frame = 0;
      this.settings = { background: '', remember: false, ...this.load('settings') };
      this.build();
      if (this.settings.remember) this.restorePositions();
      this.applySettings();
      this.fitFirstScreen();
      this.fit();
      new ResizeObserver(() => { if (!this.moved) this.fit(); }).observe(this.viewport);
      window.addEventListener('resize', () => this.fitFirstScreen());
    }

    // MARK: Building

    build() {
      const root = this.root, data = this.data;
      root.classList.add('interactive');
      root.querySelector('.stack')?.setAttribute('hidden', '');
      const bar = element('div', { class: 'mv-bar', role: 'group', 'aria-label': `${data.name}: machine view` });
      this.title = element('p', { class: 'mv-title', 'aria-live': 'polite' });
      bar.append(this.title);
      this.buttons = {};
      for (const [action, label, hint] of [
        ['undo', 'Undo', 'Undo the last move (Ctrl+Z)'], ['details', 'Details & Discuss', 'Description and comments (Enter)'],
        ['photos', 'Photos', 'Photos of the selection'], ['reset', 'Reset', 'Put every part home (R)'],
        ['zoom-out', '−', 'Zoom out'], ['zoom-in', '+', 'Zoom in'], ['fit', 'Fit', 'Fit the machine in view'],
        ['settings', 'Settings', 'Background and remembered positions'],
      ]) {
        const button = element('button', { type: 'button', 'data-action': action, title: hint });
        button.textContent = label;
        if (label.length === 1) button.setAttribute('aria-label', hint);
        this.buttons[action] = button;
        bar.append(button);
      }
      this.buttons.settings.setAttribute('aria-expanded', 'false');
      bar.addEventListener('click', (event) => this.act(event.target.closest('[data-action]')?.dataset.action));

      this.settingsPanel = element('div', { class: 'mv-settings', hidden: '' });
      this.settingsPanel.innerHTML =
        '<label>Background <input type="color" name="background"></label> ' +
        '<button type="button" name="default-background">Theme background</button> ' +
        '<label><input type="checkbox" name="remember"> Remember where I moved the parts (on this device)</label>';
      this.settingsPanel.addEventListener('input', () => this.readSettings());
      this.settingsPanel.querySelector('[name="default-background"]').addEventListener('click', () => {
        this.settings.background = '';
        this.applySettings();
        this.save('settings', this.settings);
      });

      this.viewport = element('div', { class: 'mv-viewport' });
      this.viewport.style.aspectRatio = `${data.canvas.width} / ${data.canvas.height}`;
      this.world = element('div', { class: 'mv-world', role: 'group', 'aria-label': `Parts of the ${data.name}` });
      this.world.style.width = `${data.canvas.width}px`;
      this.world.style.height = `${data.canvas.height}px`;
      // Buttons in drawing order: bottom first, so Tab goes up the stack.
      for (const part of [...this.topFirst].reverse()) {
        const button = element('button', { type: 'button', class: 'mv-part', 'aria-pressed': 'false',
          'aria-label': part.name, 'aria-describedby': 'mv-help-' + data.slug });
        // A button covers only where its layer is opaque, so moving it repaints only there.
        const area = part.bounds ?? part.box;
        Object.assign(button.style, { left: `${area.x}px`, top: `${area.y}px`, width: `${area.width}px`,
          height: `${area.height}px`, zIndex: String(part.z) });
        const image = element('img', { src: part.image, alt: '', draggable: 'false', decoding: 'async' });
        Object.assign(image.style, { left: `${part.box.x - area.x}px`, top: `${part.box.y - area.y}px`,
          width: `${part.box.width}px`, height: `${part.box.height}px` });
        button.append(image);
        button.addEventListener('focus', () => { if (this.selected !== part) this.select(part); });
        part.button = button;
        part.img = image;
        this.world.append(button);
      }
      // The halo is drawn on top of every part, so a selected part below others still shows it:
      // a red ring around the part's outline, painted once into a canvas that moves with it.
      this.halo = element('canvas', { class: 'mv-halo', 'aria-hidden': 'true', hidden: '' });
      this.halo.style.zIndex = String(Math.max(0, ...this.parts.map((part) => part.z)) + 1);
      this.world.append(this.halo);
      this.viewport.append(this.world);
      const help = element('p', { id: 'mv-help-' + data.slug, class: 'visually-hidden' });
      help.textContent = 'Arrow keys move the part, Enter shows its details, Escape deselects, Ctrl+Z undoes, R resets.';

      this.panel = element('section', { class: 'mv-panel', hidden: '', 'aria-labelledby': 'mv-panel-title-' + data.slug });
      this.panel.addEventListener('click', (event) => { if (event.target.closest('[data-close]')) this.closeDetails(); });

      root.append(bar, this.settingsPanel, this.viewport, help, this.panel);
      this.viewport.addEventListener('pointerdown', (event) => this.down(event));
      this.viewport.addEventListener('pointermove', (event) => this.move(event));
      this.viewport.addEventListener('pointerup', (event) => this.up(event));
      this.viewport.addEventListener('pointercancel', (event) => this.up(event, true));
      this.viewport.addEventListener('pointerleave', () => this.hover(null));
      // As maps do, the view does not take the page's scrolling: a plain wheel scrolls the page
      // and a hint says how to zoom; Ctrl or Cmd with the wheel zooms, and so does a trackpad
      // pinch, which browsers report as a wheel with Ctrl held.
      this.hint = element('p', { class: 'mv-hint', 'aria-hidden': 'true' });
      this.hint.textContent = /Mac|iPhone|iPad/.test(navigator.platform) ? 'Use \u2318 + scroll to zoom the machine'
        : 'Use Ctrl + scroll to zoom the machine';
      this.viewport.append(this.hint);
      this.viewport.addEventListener('wheel', (event) => {
        if (!event.ctrlKey && !event.metaKey) {
          this.showHint();
          return;
        }
        event.preventDefault();
        const unit = event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? 400 : 1;
        this.zoomAt(Math.exp(-event.deltaY * unit * 0.0015), event.clientX, event.clientY);
      }, { passive: false });
      // One finger on a part drags it and two fingers pinch; one finger elsewhere scrolls the
      // page (the viewport allows vertical panning), so a phone can scroll past the machine.
      this.viewport.addEventListener('touchstart', (event) => {
        const touch = event.touches[0];
        const point = this.canvasPoint(touch.clientX, touch.clientY);
        if (event.touches.length > 1 || this.partAt(point.x, point.y)) event.preventDefault();
      }, { passive: false });
      root.addEventListener('keydown', (event) => this.key(event));
      this.update();
    }

    showHint() {
      this.hint.classList.add('shown');
      clearTimeout(this.hintTimer);
      this.hintTimer = setTimeout(() => this.hint.classList.remove('shown'), 1500);
    }

    // MARK: Selection and hit-testing

    select(part) {
      if (this.selected === part) return;
      if (this.selected) {
        this.selected.button.classList.remove('selected');
        this.selected.button.setAttribute('aria-pressed', 'false');
      }
      this.selected = part;
      if (part) {
        part.button.classList.add('selected');
        part.button.setAttribute('aria-pressed', 'true');
        this.paintHalo();
      } else if (this.root.contains(document.activeElement) && document.activeElement.classList.contains('mv-part')) {
        document.activeElement.blur();
      }
      if (!part) this.halo.hidden = true;
      if (!this.panel.hidden) this.showDetails(false);
      this.update();
    }

    // Paints the selected part's halo: a red ring along its outline, its silhouette grown by a
    // few screen pixels less the silhouette and the part itself, at about the screen's resolution.
    paintHalo() {
      const part = this.selected, halo = this.halo;
      if (!part || !part.bounds) { halo.hidden = true; return; }
      const image = part.img;
      if (!image.complete || !image.naturalWidth) {
        image.addEventListener('load', () => { if (this.selected === part) this.paintHalo(); }, { once: true });
        return;
      }
      const scale = this.view.scale, bounds = part.bounds, box = part.box;
      const ring = HALO_WIDTH / scale, margin = 2 * ring;
      const width = bounds.width + 2 * margin, height = bounds.height + 2 * margin;
      const resolution = Math.min(scale * (window.devicePixelRatio || 1), 4096 / Math.max(width, height));
      const pixels = { width: Math.ceil(width * resolution), height: Math.ceil(height * resolution) };
      // The part as drawn, and its solid silhouette (see `solidify`): the ring grows from the
      // silhouette, and the part as drawn is cut out of it, so its soft edge meets the ring.
      const drawn = element('canvas', pixels);
      const part2d = drawn.getContext('2d');
      part2d.setTransform(resolution, 0, 0, resolution, (margin - bounds.x) * resolution, (margin - bounds.y) * resolution);
      part2d.drawImage(image, box.x, box.y, box.width, box.height);
      const silhouette = element('canvas', pixels);
      const red = silhouette.getContext('2d', { willReadFrequently: true });
      red.drawImage(drawn, 0, 0);
      solidify(red, pixels);
      Object.assign(halo, pixels);
      const context = halo.getContext('2d');
      const reach = ring * resolution;
      for (let step = 0; step < 16; step++) {
        const angle = step * Math.PI / 8;
        context.drawImage(silhouette, reach * Math.cos(angle), reach * Math.sin(angle));
      }
      // The part is cut out of the ring twice: its silhouette whole, so that a tinted pane
      // (glass at 13-20% that counts as the part) shows through clear instead of red, and
      // the part as drawn, so that its soft edge below the silhouette's alpha meets the ring.
      context.globalCompositeOperation = 'destination-out';
      context.drawImage(silhouette, 0, 0);
      context.drawImage(drawn, 0, 0);
      Object.assign(halo.style, { left: `${bounds.x - margin}px`, top: `${bounds.y - margin}px`,
        width: `${width}px`, height: `${height}px` });
      halo.hidden = false;
      this.haloScale = scale;
      this.schedule();
    }

    // The part drawn at a canvas point: the topmost whose pixel there is opaque.
    partAt(x, y) {
      for (const part of this.topFirst) {
        if (this.covers(part, x - part.dx, y - part.dy)) return part;
      }
      return null;
    }

    covers(part, x, y) {
      const bounds = part.bounds, mask = part.mask;
      if (!bounds || !mask) return false;
      if (x < bounds.x || y < bounds.y || x >= bounds.x + bounds.width || y >= bounds.y + bounds.height) return false;
      // The build's mask is coarse and never misses an opaque pixel; the image itself decides.
      mask.cells ??= Uint8Array.from(atob(mask.bits), (c) => c.charCodeAt(0));
      const column = Math.min(mask.columns - 1, Math.floor((x - bounds.x) / bounds.width * mask.columns));
      const row = Math.min(mask.rows - 1, Math.floor((y - bounds.y) / bounds.height * mask.rows));
      const cell = row * mask.columns + column;
      if (!(mask.cells[cell >> 3] & (0x80 >> (cell & 7)))) return false;
      const alpha = this.alpha(part);
      if (!alpha) return true;
      const px = Math.floor((x - part.box.x) / part.box.width * alpha.width);
      const py = Math.floor((y - part.box.y) / part.box.height * alpha.height);
      if (px < 0 || py < 0 || px >= alpha.width || py >= alpha.height) return false;
      return alpha.values[py * alpha.width + px] >= OPAQUE_ALPHA;
    }

    // The layer's alpha channel, read once from the loaded image; null until it has loaded.
    alpha(part) {
      if (part.alpha !== undefined) return part.alpha;
      const image = part.img;
      if (!image.complete || !image.naturalWidth) return null;
      try {
        const width = image.naturalWidth, height = image.naturalHeight;
        const canvas = element('canvas', { width, height });
        const context = canvas.getContext('2d', { willReadFrequently: true });
        context.drawImage(image, 0, 0, width, height);
        const rgba = context.getImageData(0, 0, width, height).data;
        const values = new Uint8Array(width * height);
        for (let i = 0; i < values.length; i++) values[i] = rgba[i * 4 + 3];
        part.alpha = { width, height, values };
      } catch {
        part.alpha = null;  // an image the canvas may not read: the mask alone decides
      }
      return part.alpha;
    }

    // MARK: Pointer: select, drag, pan, pinch

    canvasPoint(clientX, clientY) {
      const box = this.viewport.getBoundingClientRect();
      return { x: (clientX - box.left - this.view.x) / this.view.scale, y: (clientY - box.top - this.view.y) / this.view.scale };
    }

    down(event) {
      if (event.button !== 0 && event.pointerType === 'mouse') return;
      try { this.viewport.setPointerCapture(event.pointerId); } catch { /* a synthetic pointer */ }
      this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      if (this.pointers.size === 2) {
        this.finishDrag();
        const [a, b] = [...this.pointers.values()];
        this.gesture = { kind: 'pinch', distance: Math.hypot(a.x - b.x, a.y - b.y) || 1,
          middle: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 }, view: { ...this.view } };
        return;
      }
      if (this.pointers.size > 2) return;
      event.preventDefault();
      const point = this.canvasPoint(event.clientX, event.clientY);
      const part = this.partAt(point.x, point.y);
      if (part) {
        this.select(part);
        part.button.focus({ preventScroll: true });
        this.viewport.classList.add('grabbing');
        this.gesture = { kind: 'part', part, start: { x: event.clientX, y: event.clientY }, from: { x: part.dx, y: part.dy },
          touch: event.pointerType === 'touch', point };
      } else {
        this.gesture = { kind: 'pan', start: { x: event.clientX, y: event.clientY }, view: { ...this.view }, moved: false };
      }
    }

    // A mouse or pen over a part it can take: the cursor becomes a hand and the part is ringed
    // faintly, so the picture says it comes apart before anything is clicked.
    hover(part) {
      if (this.hovered === part) return;
      this.hovered?.button.classList.remove('hover');
      this.hovered = part;
      part?.button.classList.add('hover');
      this.viewport.classList.toggle('over-part', !!part);
    }

    move(event) {
      if (!this.pointers.has(event.pointerId) || !this.gesture) {
        if (event.pointerType !== 'touch' && !this.gesture) {
          const point = this.canvasPoint(event.clientX, event.clientY);
          this.hover(this.partAt(point.x, point.y));
        }
        return;
      }
      this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      const gesture = this.gesture;
      if (gesture.kind === 'pinch' && this.pointers.size === 2) {
        const [a, b] = [...this.pointers.values()];
        const middle = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
        const factor = Math.hypot(a.x - b.x, a.y - b.y) / gesture.distance;
        const box = this.viewport.getBoundingClientRect();
        const scale = this.clampScale(gesture.view.scale * factor);
        const ratio = scale / gesture.view.scale;
        // The canvas point under the first middle stays under the fingers' current middle.
        this.view = { scale,
          x: middle.x - box.left - (gesture.middle.x - box.left - gesture.view.x) * ratio,
          y: middle.y - box.top - (gesture.middle.y - box.top - gesture.view.y) * ratio };
        this.moved = true;
      } else if (gesture.kind === 'part') {
        const part = gesture.part;
        part.dx = gesture.from.x + (event.clientX - gesture.start.x) / this.view.scale;
        part.dy = gesture.from.y + (event.clientY - gesture.start.y) / this.view.scale;
        if (!gesture.dragging) {
          gesture.dragging = true;
          part.button.classList.add('dragging');
          this.halo.classList.add('dragging');
        }
      } else if (gesture.kind === 'pan') {
        const dx = event.clientX - gesture.start.x, dy = event.clientY - gesture.start.y;
        if (!gesture.moved && Math.hypot(dx, dy) < TAP_SLOP) return;
        gesture.moved = true;
        this.view = { ...gesture.view, x: gesture.view.x + dx, y: gesture.view.y + dy };
        this.moved = true;
      }
      this.schedule();
    }

    up(event, cancelled = false) {
      if (!this.pointers.has(event.pointerId)) return;
      this.pointers.delete(event.pointerId);
      const gesture = this.gesture;
      if (gesture?.kind === 'part') {
        if (cancelled) {
          gesture.part.dx = gesture.from.x;
          gesture.part.dy = gesture.from.y;
        }
        const tapped = gesture.touch && !cancelled
          && Math.hypot(event.clientX - gesture.start.x, event.clientY - gesture.start.y) < TAP_SLOP;
        this.finishDrag();
        if (tapped) this.zoomToSmallParts(gesture.point);
      } else if (gesture?.kind === 'pan' && !gesture.moved && !cancelled) {
        this.select(null);
      }
      if (this.pointers.size === 0) this.gesture = null;
      else if (gesture?.kind === 'pinch') {
        // One finger left: it pans from where it is.
        const [rest] = [...this.pointers.values()];
        this.gesture = { kind: 'pan', start: rest, view: { ...this.view }, moved: true };
      }
      this.schedule();
    }

    finishDrag() {
      const gesture = this.gesture;
      this.viewport.classList.remove('grabbing');
      if (gesture?.kind !== 'part') return;
      const part = gesture.part;
      part.button.classList.remove('dragging');
      this.halo.classList.remove('dragging');
      if (part.dx !== gesture.from.x || part.dy !== gesture.from.y) {
        this.record([[part, gesture.from.x, gesture.from.y]]);
      }
      this.gesture = null;
    }

    // MARK: Moves, undo and reset

    record(entries) {
      this.undoStack.push(entries);
      if (this.undoStack.length > UNDO_LEVELS) this.undoStack.shift();
      this.savePositions();
      this.update();
    }

    nudge(part, dx, dy) {
      const from = [part, part.dx, part.dy];
      part.dx += dx;
      part.dy += dy;
      this.record([from]);
    }

    undo() {
      const entries = this.undoStack.pop();
      if (!entries) return;
      this.animate();
      for (const [part, x, y] of entries) { part.dx = x; part.dy = y; }
      this.savePositions();
      this.update();
    }

    reset() {
      const moved = this.parts.filter((part) => part.dx || part.dy);
      if (moved.length) {
        const entries = moved.map((part) => [part, part.dx, part.dy]);
        this.animate();
        for (const part of moved) { part.dx = 0; part.dy = 0; }
        this.record(entries);
      }
      this.fit();
    }

    // Undo and reset glide parts home, unless the visitor prefers less motion (CSS decides).
    animate() {
      this.world.classList.add('settling');
      clearTimeout(this.settling);
      this.settling = setTimeout(() => this.world.classList.remove('settling'), 400);
    }

    // MARK: Zoom

    clampScale(scale) {
      return Math.min(this.fitScale * 12, Math.max(this.fitScale / 4, scale));
    }

    // The whole machine on the first screen: the stage is no taller than the window below
    // where it starts (a laptop's 900 px showed a kettle's top two thirds), and never so
    // short that a part is too small to take (20 rem).
    fitFirstScreen() {
      const top = this.viewport.getBoundingClientRect().top + window.scrollY;
      const room = window.innerHeight - Math.min(top, window.innerHeight * 0.5) - 16;
      const least = 20 * parseFloat(getComputedStyle(document.documentElement).fontSize);
      this.viewport.style.maxHeight = `${Math.max(least, Math.min(room, window.innerHeight * 0.75))}px`;
    }

    fit() {
      const box = this.viewport.getBoundingClientRect();
      if (!box.width || !box.height) return;
      const { width, height } = this.data.canvas;
      const scale = Math.min(box.width / width, box.height / height);
      this.fitScale = scale;
      this.view = { scale, x: (box.width - width * scale) / 2, y: (box.height - height * scale) / 2 };
      this.moved = false;
      this.update();
    }

    zoomAt(factor, clientX, clientY) {
      const box = this.viewport.getBoundingClientRect();
      const scale = this.clampScale(this.view.scale * factor);
      const ratio = scale / this.view.scale;
      const px = clientX - box.left, py = clientY - box.top;
      this.view = { scale, x: px - (px - this.view.x) * ratio, y: py - (py - this.view.y) * ratio };
      this.moved = true;
      this.schedule();
    }

    // A part smaller than a fingertip cannot be aimed at on a phone (a CMOS battery is 11 px
    // wide on a 390 px screen). A tap over or beside one zooms in around it, until the
    // smallest near the finger is a fingertip's size; the tap after takes it. The tap is
    // placed on the canvas where it went down: selecting may have moved the page since.
    zoomToSmallParts(point) {
      const scale = this.view.scale;
      const near = this.parts.filter((part) => {
        const b = part.bounds;
        if (!b || Math.max(b.width, b.height) * scale >= FINGER) return false;
        const left = b.x + part.dx, top = b.y + part.dy;
        const dx = Math.max(left - point.x, 0, point.x - (left + b.width));
        const dy = Math.max(top - point.y, 0, point.y - (top + b.height));
        return Math.hypot(dx, dy) * scale <= FINGER / 2;
      });
      if (!near.length) return;
      const smallest = Math.min(...near.map((part) => Math.max(part.bounds.width, part.bounds.height)));
      const box = this.viewport.getBoundingClientRect();
      this.zoomAt(FINGER / (smallest * scale), box.left + this.view.x + point.x * scale, box.top + this.view.y + point.y * scale);
    }

    zoomCentre(factor) {
      const box = this.viewport.getBoundingClientRect();
      this.zoomAt(factor, box.left + box.width / 2, box.top + box.height / 2);
    }

    // MARK: Drawing

    schedule() {
      if (!this.frame) this.frame = requestAnimationFrame(() => { this.frame = 0; this.draw(); });
    }

    draw() {
      const { scale, x, y } = this.view;
      this.world.style.transform = `translate(${x}px, ${y}px) scale(${scale})`;
      for (const part of this.parts) {
        const transform = part.dx || part.dy ? `translate(${part.dx}px, ${part.dy}px)` : '';
        if (part.button.style.transform !== transform) part.button.style.transform = transform;
        if (part === this.selected && this.halo.style.transform !== transform) this.halo.style.transform = transform;
      }
      // The ring stays about 3 screen pixels wide: repainted once a zoom has settled.
      if (this.selected && this.haloScale && Math.abs(Math.log(scale / this.haloScale)) > 0.2) {
        clearTimeout(this.haloTimer);
        this.haloTimer = setTimeout(() => this.paintHalo(), 150);
      }
    }

    update() {
      const part = this.selected;
      this.title.textContent = part ? `Selected: ${part.name}` : 'Selected: the whole machine';
      this.buttons.undo.disabled = this.undoStack.length === 0;
      const photos = part ? part.lightbox.length : 0;
      this.buttons.photos.disabled = part ? photos === 0 : !this.data.photos;
      this.buttons.photos.textContent = part ? `Photos (${photos})` : 'Photos';
      this.schedule();
    }

    // MARK: Details & Discuss, Photos

    // Comments come from discussion.json, which changes with every comment, while
    // machine.json changes only with the machine: the panel is filled again once it arrives.
    setDiscussion(discussion) {
      this.discussion = discussion;
      if (!this.panel.hidden) this.showDetails(false);
    }

    showDetails(focus = true) {
      const part = this.selected, data = this.data;
      const notes = part ? part.notes : data.notes;
      const name = part ? part.name : data.name;
      const thread = this.discussion ? (part ? this.discussion.parts[part.slug] : this.discussion.machine) : null;
      const count = part && thread ? thread.comments : null;
      this.panel.replaceChildren();
      const heading = element('h2', { id: 'mv-panel-title-' + data.slug, tabindex: '-1' });
      heading.textContent = name;
      const close = element('button', { type: 'button', 'data-close': '', class: 'mv-close', 'aria-label': 'Close details' });
      close.textContent = '×';
      this.panel.append(close, heading);
      const description = element('div', { class: 'body mv-description' });
      // The build rendered and made safe this HTML exactly as on the machine's pages.
      description.innerHTML = notes.description || '<p class="empty">No description yet.</p>';
      rebase(description, data.page);
      this.panel.append(description);
      const latest = thread ? thread.latestComments : [];
      if (thread || this.discussion === undefined) {
        const title = element('h3');
        title.textContent = !thread ? 'Loading comments…' : latest.length ? 'Latest comments' : 'No comments yet';
        this.panel.append(title);
      }
      const list = element('ol', { class: 'entries' });
      for (const comment of latest) {
        const item = element('li', { class: 'entry' });
        const byline = element('p', { class: 'byline' });
        const author = element('span', { class: 'author' });
        author.textContent = comment.author;
        byline.append(author, ' ', comment.date);
        const body = element('div', { class: 'body' });
        body.innerHTML = comment.html;
        rebase(body, data.page);
        item.append(byline, body);
        list.append(item);
      }
      this.panel.append(list);
      const link = element('a', { href: part ? part.page : data.page });
      link.textContent = part
        ? `Open the ${name} page${count ? ` (${count} comment${count === 1 ? '' : 's'})` : ''} to read all and discuss`
        : `Discussion of the ${name}`;
      const more = element('p');
      more.append(link);
      this.panel.append(more);
      this.panel.hidden = false;
      this.buttons.details.setAttribute('aria-expanded', 'true');
      if (focus) heading.focus();
    }

    closeDetails() {
      this.panel.hidden = true;
      this.buttons.details.setAttribute('aria-expanded', 'false');
      (this.selected?.button ?? this.buttons.details).focus({ preventScroll: true });
    }

    showPhotos() {
      const part = this.selected;
      if (part) {
        if (window.teardownLightbox?.open(part.lightbox, 0, part.button)) return;
        if (part.photos) location.href = part.photos;
      } else if (this.data.photos) {
        location.href = this.data.photos;
      }
    }

    // MARK: Commands and keys

    act(action) {
      switch (action) {
        case 'undo': this.undo(); break;
        case 'details': this.panel.hidden ? this.showDetails() : this.closeDetails(); break;
        case 'photos': this.showPhotos(); break;
        case 'reset': this.reset(); break;
        case 'zoom-in': this.zoomCentre(1.25); break;
        case 'zoom-out': this.zoomCentre(0.8); break;
        case 'fit': this.fit(); break;
        case 'settings': {
          const open = this.settingsPanel.hidden;
          this.settingsPanel.hidden = !open;
          this.buttons.settings.setAttribute('aria-expanded', String(open));
          break;
        }
      }
    }

    key(event) {
      if (event.target.closest('input, .mv-panel a')) return;
      const part = this.selected;
      const step = event.shiftKey ? BIG_STEP : STEP;
      const arrows = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
      const command = event.ctrlKey || event.metaKey;
      if (arrows[event.key] && !command && !event.altKey) {
        const [dx, dy] = arrows[event.key];
        if (part) this.nudge(part, dx, dy);
        else { this.view = { ...this.view, x: this.view.x - dx, y: this.view.y - dy }; this.moved = true; this.schedule(); }
      } else if (command && event.key.toLowerCase() === 'z' && !event.shiftKey) {
        this.undo();
      } else if (event.key === 'Enter' && event.target.classList.contains('mv-part')) {
        this.showDetails();
      } else if (event.key === 'Escape') {
        if (!this.panel.hidden) this.closeDetails();
        else if (!this.settingsPanel.hidden) this.act('settings');
        else this.select(null);
      } else if (!command && !event.altKey && (event.key === 'r' || event.key === 'R') && !event.target.closest('.mv-panel')) {
        this.reset();
      } else if (!command && (event.key === '+' || event.key === '=')) {
        this.zoomCentre(1.25);
      } else if (!command && event.key === '-') {
        this.zoomCentre(0.8);
      } else {
        return;
      }
      event.preventDefault();
    }

    // MARK: Settings and remembered positions

    readSettings() {
      const form = this.settingsPanel;
      this.settings.background = form.querySelector('[name="background"]').value;
      this.settings.remember = form.querySelector('[name="remember"]').checked;
      this.save('settings', this.settings);
      if (this.settings.remember) this.savePositions();
      else this.forget('positions');
      this.applySettings();
    }

    applySettings() {
      const form = this.settingsPanel;
      this.viewport.style.background = this.settings.background || '';
      form.querySelector('[name="background"]').value = this.settings.background || '#ffffff';
      form.querySelector('[name="remember"]').checked = this.settings.remember;
    }

    savePositions() {
      if (!this.settings.remember) return;
      const moved = {};
      for (const part of this.parts) if (part.dx || part.dy) moved[part.slug] = [part.dx, part.dy];
      this.save('positions', moved);
    }

    restorePositions() {
      const moved = this.load('positions');
      for (const part of this.parts) {
        const offset = moved[part.slug];
        if (Array.isArray(offset) && offset.every(Number.isFinite)) [part.dx, part.dy] = offset;
      }
    }

    load(name) {
      try { return JSON.parse(localStorage.getItem(`${this.storageKey}:${name}`)) || {}; } catch { return {}; }
    }

    save(name, value) {
      try { localStorage.setItem(`${this.storageKey}:${name}`, JSON.stringify(value)); } catch { /* storage is off or full */ }
    }

    forget(name) {
      try { localStorage.removeItem(`${this.storageKey}:${name}`); } catch { /* storage is off */ }
    }
  }

  // The silhouette the halo rings: the pixels that belong to the part as hit-testing counts
  // them (alpha from OPAQUE_ALPHA), solid red, the rest clear. Sixteen shifted copies of the
  // image's own alpha would add a window's or a soft shadow's faint alpha up to solid red,
  // flooding what should stay see-through.
  function solidify(context, { width, height }) {
    let image;
    try {
      image = context.getImageData(0, 0, width, height);
    } catch {
      // A layer from another origin cannot be read back: ring its alpha as it is.
      context.globalCompositeOperation = 'source-in';
      context.fillStyle = HALO_COLOUR;
      context.fillRect(0, 0, width, height);
      return;
    }
    const bytes = image.data;
    const [r, g, b] = [1, 3, 5].map((at) => parseInt(HALO_COLOUR.slice(at, at + 2), 16));
    for (let i = 0; i < bytes.length; i += 4) {
      bytes[i] = r;
      bytes[i + 1] = g;
      bytes[i + 2] = b;
      bytes[i + 3] = bytes[i + 3] >= OPAQUE_ALPHA ? 255 : 0;
    }
    context.putImageData(image, 0, 0);
  }

  // machine.json's addresses are relative to the file itself, but the page showing the view
  // may sit elsewhere: page 2 of a machine's discussion is two folders deeper. They are made
  // absolute once, against the file, so every page of the machine resolves them alike.
  function resolve(data, source) {
    const at = (path) => (path == null ? path : new URL(path, source).href);
    data.page = at(data.page);
    data.photos = at(data.photos);
    data.discussion = at(data.discussion);
    for (const part of data.parts) {
      part.image = at(part.image);
      part.page = at(part.page);
      part.photos = at(part.photos);
      for (const slide of part.lightbox) {
        slide.image = at(slide.image);
        slide.page = at(slide.page);
      }
    }
    return data;
  }

  // Descriptions and comments were rendered for the machine's own page: their relative links
  // and images resolve against it, whichever page shows them.
  function rebase(container, base) {
    for (const node of container.querySelectorAll('[href], [src]')) {
      for (const name of ['href', 'src']) {
        const value = node.getAttribute(name);
        if (value && !value.startsWith('#')) node.setAttribute(name, new URL(value, base).href);
      }
    }
  }

  function element(name, attributes = {}) {
    const node = document.createElement(name);
    for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
    return node;
  }

  for (const root of document.querySelectorAll('.machine-view[data-machine]')) {
    const source = new URL(root.dataset.machine, location.href);
    fetch(source)
      .then((response) => {
        if (!response.ok) throw new Error(`${source}: ${response.status}`);
        return response.json();
      })
      .then((data) => {
        if (data.version !== 2) throw new Error(`${source}: machine.json version ${data.version} is not supported`);
        const view = new MachineView(root, resolve(data, source), source);
        root.machineView = view;
        fetch(data.discussion)
          .then((response) => {
            if (!response.ok) throw new Error(`${data.discussion}: ${response.status}`);
            return response.json();
          })
          .then((discussion) => {
            if (discussion.version !== 1) throw new Error(`${data.discussion}: version ${discussion.version} is not supported`);
            view.setDiscussion(discussion);
          })
          .catch((error) => {
            view.setDiscussion(null);
            console.error('Teardown machine view:', error);
          });
      })
      .catch((error) => console.error('Teardown machine view:', error));
  }
})();
