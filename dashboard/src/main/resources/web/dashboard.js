// The Locus dashboard page: a snapshot on load, then the server's SSE stream of snapshots.
// Every string from the server is put in the page with textContent (never innerHTML): task ids,
// node names and reasons are user input and are shown as text, whatever they contain.
'use strict';

(function () {
  const COLORS = ['#3a7bd5', '#2e9b57', '#e0a526', '#c8553d', '#8e5bd0', '#1fa2a8', '#d05b9a', '#6b7785'];
  let rateChart = null;
  let queueChart = null;
  let queuesChart = null;

  function $(id) { return document.getElementById(id); }

  function bytes(n) {
    const units = ['B', 'kB', 'MB', 'GB', 'TB', 'PB'];
    let v = Number(n) || 0;
    let u = 0;
    while (Math.abs(v) >= 1000 && u < units.length - 1) { v /= 1000; u++; }
    return (u === 0 ? v.toFixed(0) : v.toFixed(1)) + ' ' + units[u];
  }

  function pct(r) { return (100 * (Number(r) || 0)).toFixed(1) + '%'; }

  // Slots: whole numbers as such, else one decimal (guarantees are scaled when the pool shrinks).
  function slots(v) {
    const n = Number(v) || 0;
    return Math.abs(n - Math.round(n)) < 1e-9 ? String(Math.round(n)) : n.toFixed(1);
  }

  // A placement's local fraction by bytes, never rounded to a whole 100 % (or 0 %) that it is
  // not: 5.1 GB local and 6 B to move is '>99.9%', not '100.0%' next to bytes still to move.
  function fraction(p) {
    const f = Number(p.localFraction) || 0;
    if (p.bytesToMove > 0 && f >= 0.9995) { return '>99.9%'; }
    if (p.localBytes > 0 && f < 0.0005) { return '<0.1%'; }
    return pct(f);
  }

  function time(ms) {
    if (!ms) { return '–'; }
    const d = new Date(ms);
    return d.toLocaleTimeString([], { hour12: false }) + '.' + String(d.getMilliseconds()).padStart(3, '0');
  }

  function setText(id, text, value) {
    const el = $(id);
    el.textContent = text;
    if (value !== undefined) { el.dataset.value = String(value); }
  }

  function td(text, cls, value) {
    const c = document.createElement('td');
    c.textContent = text;
    if (cls) { c.className = cls; }
    if (value !== undefined) { c.dataset.value = String(value); }
    return c;
  }

  function meter(used, of) {
    const m = document.createElement('span');
    m.className = 'meter';
    const fill = document.createElement('div');
    const f = of > 0 ? Math.min(1, used / of) : 0;
    fill.style.width = (100 * f).toFixed(1) + '%';
    if (of > 0 && used >= of) { m.classList.add('full'); }
    m.appendChild(fill);
    return m;
  }

  function fill(tableId, rows, build) {
    const body = $(tableId).querySelector('tbody');
    const out = document.createDocumentFragment();
    rows.forEach(r => out.appendChild(build(r)));
    body.replaceChildren(out);
  }

  function renderTotals(s) {
    const t = s.totals;
    setText('placements-rate', t.placementsPerSecond.toFixed(1), t.placementsPerSecond);
    setText('placements-total', String(t.placements), t.placements);
    setText('completed', String(t.completed), t.completed);
    setText('failed', String(t.failed), t.failed);
    setText('hit-local', pct(t.localRatio), t.localRatio);
    setText('hit-peer', pct(t.peerRatio), t.peerRatio);
    setText('hit-storage', pct(t.storageRatio), t.storageRatio);
    $('bar-local').style.width = pct(t.localRatio);
    $('bar-peer').style.width = pct(t.peerRatio);
    $('bar-storage').style.width = pct(t.storageRatio);
    setText('bytes-moved', bytes(t.bytesMoved), t.bytesMoved);
    setText('alive-count', String(t.aliveNodes), t.aliveNodes);
    setText('lost-count', String(t.lostNodes), t.lostNodes);
    setText('dead-letters-total', String(t.deadLetters), t.deadLetters);
    const read = Object.values(s.topics.read).reduce((a, b) => a + b, 0);
    const bad = Object.values(s.topics.undecodable).reduce((a, b) => a + b, 0);
    setText('records-read', read + ' records read' + (bad ? ', ' + bad + ' undecodable (skipped)' : '') + '.', read);
    setText('caught-up', s.topics.caughtUp ? 'caught up with the topics' : 'reading the topics…');
  }

  function renderPools(s) {
    fill('pools', s.pools, p => {
      const tr = document.createElement('tr');
      tr.dataset.pool = p.pool;
      tr.append(td(p.pool, 'text pool'), td(p.policy || '–', 'policy'),
        td(String(p.queueLength), 'num queue', p.queueLength),
        td(String(p.running), 'num running', p.running),
        td(p.slotsInUse + ' / ' + p.slots, 'num busy', p.slotsInUse),
        td(String(p.members), 'num nodes', p.members),
        td(String(p.placements), 'num placements', p.placements),
        td(String(p.completed), 'num completed', p.completed),
        td(pct(p.localRatio), 'num local', p.localRatio),
        // The scheduler's own figures, as of its latest metrics record (transactional sinks make
        // them visible a checkpoint later): what it counted then, not what the nodes do now.
        td(p.metricsTimeMs ? 'running ' + p.runningTasks + ', busy ' + p.busySlots + ' / '
          + p.totalSlots + ', ' + p.registeredNodes + ' nodes at ' + time(p.metricsTimeMs) : '–',
          'muted scheduler', p.runningTasks));
      return tr;
    });
  }

  // The queues view (issue 24): one row per pool and queue, depth first, a child indented under
  // its parent; a parent's figures are its subtree's.
  function renderQueues(s) {
    const rows = [];
    for (const p of s.pools) {
      (p.queues || []).forEach(q => rows.push({pool: p.pool, q: q}));
    }
    fill('queues', rows, x => {
      const q = x.q;
      const tr = document.createElement('tr');
      tr.dataset.queue = x.pool + '/' + q.queue;
      if (q.running < q.guarantee - 1e-9 && q.pending > 0) { tr.className = 'owed'; }
      const name = td('\u00a0\u00a0'.repeat(q.depth) + q.queue + (q.leaf ? '' : '/'), 'text name');
      tr.append(td(x.pool, 'text pool'), name,
        td(slots(q.weight), 'num weight', q.weight),
        td(slots(q.guarantee), 'num guarantee', q.guarantee),
        td(q.limit === null || q.limit === undefined ? '–' : String(q.limit), 'num limit', q.limit),
        td(String(q.running), 'num running', q.running),
        td(String(q.pending), 'num pending', q.pending),
        td(pct(q.share), 'num share', q.share),
        td(slots(q.fairShare), 'num fair', q.fairShare),
        td(slots(q.borrowed), 'num borrowed', q.borrowed),
        td(String(q.preempted), 'num preempted', q.preempted));
      return tr;
    });
    $('queues-none').textContent = rows.length ? ''
      : 'No queue reported (no scheduler metrics yet, a scheduler older than queues, or split pools only).';
  }

  // The pending view: one row per pool and reason (the scheduler's counts of queued tasks per
  // pending-reason code, in the codes' order), the pool-wide reason on the pool's first row.
  function renderPending(s) {
    const rows = [];
    for (const p of s.pools) {
      (p.pending || []).forEach((r, i) => rows.push({pool: p.pool, r: r,
        why: i === 0 && p.pendingReason ? p.pendingReason : ''}));
    }
    fill('pending', rows, x => {
      const tr = document.createElement('tr');
      tr.dataset.reason = x.pool + '/' + x.r.code;
      tr.append(td(x.pool, 'text pool'), td(x.r.code, 'code'),
        td(String(x.r.count), 'num count', x.r.count), td(x.r.label || '–', 'label'),
        td(x.why, 'text why'));
      return tr;
    });
    $('pending-none').textContent = rows.length ? '' : 'No queued task.';
  }

  function renderPlacements(s) {
    fill('placements', s.placements, p => {
      const tr = document.createElement('tr');
      tr.dataset.task = p.taskId;
      tr.append(td(time(p.timeMs), 'time'), td(p.pool, 'text pool'),
        td(p.taskId + (p.attempt > 0 ? ' #' + p.attempt : ''), 'text task'),
        td(p.node, 'text node'), td(p.policy, 'policy'),
        td(bytes(p.localBytes), 'num local', p.localBytes),
        td(bytes(p.bytesToMove), 'num move', p.bytesToMove),
        td(fraction(p), 'num score', p.localFraction));
      return tr;
    });
  }

  function renderNodes(s) {
    $('nodes-not-shown').textContent = s.nodesNotShown > 0 ? s.nodesNotShown + ' more nodes not shown' : '';
    fill('nodes', s.nodes, n => {
      const tr = document.createElement('tr');
      tr.dataset.pool = n.pool;
      tr.dataset.node = n.node;
      tr.className = n.state;
      // Slots in use as the scheduler counts them: placed attempts not yet ended, up to the
      // node's slots; the rest wait in its local queue.
      const slots = td('', 'slots', n.slotsInUse);
      const queued = n.running - n.slotsInUse;
      slots.append(meter(n.slotsInUse, n.slots), document.createTextNode(n.slotsInUse + ' / ' + n.slots
        + (queued > 0 ? ' +' + queued + ' queued' : '')));
      const cache = td('', 'cache', n.cacheBytes);
      const f = n.cacheCapacityBytes > 0 ? ' (' + pct(n.cacheBytes / n.cacheCapacityBytes) + ')' : '';
      cache.append(meter(n.cacheBytes, n.cacheCapacityBytes),
        document.createTextNode(bytes(n.cacheBytes) + ' / ' + bytes(n.cacheCapacityBytes) + f));
      tr.append(td(n.pool, 'text pool'), td(n.node, 'text node'), td(n.state, 'state'), slots, cache,
        td(String(n.placements), 'num placements', n.placements),
        td(String(n.completed), 'num completed', n.completed),
        td(String(n.failed), 'num failed', n.failed));
      return tr;
    });
  }

  function renderLost(s) {
    fill('lost', s.lostNodes, n => {
      const tr = document.createElement('tr');
      tr.dataset.node = n.node;
      tr.append(td(n.pool, 'text pool'), td(n.node, 'text node'), td(time(n.heardMs), 'time'),
        td(time(n.lostAtMs), 'time'));
      return tr;
    });
  }

  function renderDeadLetters(s) {
    fill('dead-codes', s.deadLetters.byCode, r => {
      const tr = document.createElement('tr');
      tr.dataset.code = r.code;
      tr.append(td(r.code, 'code'), td(String(r.count), 'num count', r.count),
        td(r.lastTopic + ': ' + r.lastReason, 'text reason'));
      return tr;
    });
  }

  function chart(canvasId, type) {
    if (!window.Chart) { return null; }
    return new window.Chart($(canvasId), {
      type: type,
      data: { labels: [], datasets: [] },
      options: {
        animation: false, responsive: true, maintainAspectRatio: false,
        scales: { y: { beginAtZero: true } },
        plugins: { legend: { display: canvasId !== 'rate-chart' } }
      }
    });
  }

  function renderCharts(s) {
    if (!rateChart) { rateChart = chart('rate-chart', 'bar'); }
    if (!queueChart) { queueChart = chart('queue-chart', 'line'); }
    if (rateChart) {
      const n = s.rate.perSecond.length;
      rateChart.data.labels = s.rate.perSecond.map((_, i) => (i - n) + 's');
      rateChart.data.datasets = [{ label: 'placements/s', data: s.rate.perSecond, backgroundColor: COLORS[0] }];
      rateChart.update();
    }
    if (queueChart) {
      const now = s.timeMs;
      queueChart.data.datasets = s.pools.map((p, i) => ({
        label: p.pool, borderColor: COLORS[i % COLORS.length], backgroundColor: COLORS[i % COLORS.length],
        pointRadius: 0, data: p.queueTimesMs.map((t, k) => ({ x: Math.round((t - now) / 1000), y: p.queueLengths[k] }))
      }));
      queueChart.options.scales.x = { type: 'linear', title: { display: true, text: 'seconds ago' } };
      queueChart.update();
    }
    if (!queuesChart) { queuesChart = chart('queues-chart', 'line'); }
    if (queuesChart) {
      // Per queue: running slots (solid), its fair share (dashed) and its guarantee (dotted, when
      // it has one), in one colour; a queue under its dotted line with work pending is owed slots.
      const now = s.timeMs;
      const sets = [];
      let i = 0;
      for (const p of s.pools) {
        for (const q of (p.queueSeries || [])) {
          const color = COLORS[i++ % COLORS.length];
          const at = (vals) => q.timesMs.map((t, k) => ({ x: Math.round((t - now) / 1000), y: vals[k] }));
          const name = p.pool + '/' + q.queue;
          sets.push({ label: name + ' running', kind: 'running', borderColor: color, backgroundColor: color,
            pointRadius: 0, data: at(q.running) });
          sets.push({ label: name + ' fair share', kind: 'fair', borderColor: color, backgroundColor: color,
            pointRadius: 0, borderDash: [6, 4], borderWidth: 1.5, data: at(q.fairShare) });
          if (q.guarantee.some(g => g > 0)) {
            sets.push({ label: name + ' guarantee', kind: 'guarantee', borderColor: color, backgroundColor: color,
              pointRadius: 0, borderDash: [2, 3], borderWidth: 1, data: at(q.guarantee) });
          }
        }
      }
      queuesChart.data.datasets = sets;
      queuesChart.options.scales.x = { type: 'linear', title: { display: true, text: 'seconds ago' } };
      queuesChart.options.scales.y.title = { display: true, text: 'slots' };
      // one legend entry per queue (its colour); the heading says which line is which
      queuesChart.options.plugins.legend.labels = {
        filter: (item, data) => data.datasets[item.datasetIndex].kind === 'running' };
      queuesChart.update();
    }
  }

  function render(s) {
    renderTotals(s);
    renderPools(s);
    renderQueues(s);
    renderPending(s);
    renderPlacements(s);
    renderNodes(s);
    renderLost(s);
    renderDeadLetters(s);
    renderCharts(s);
    document.body.dataset.version = String(s.version);
  }

  function status(text, cls) {
    const el = $('status');
    el.textContent = text;
    el.className = 'status ' + cls;
  }

  // The badge says what the page shows: 'loading…' until a snapshot is drawn; the time of the
  // loaded snapshot until the stream is open; 'live' while it is; 'reconnecting…' (with the time
  // of the data shown) when it drops. It once said 'connecting…' until the first streamed event,
  // so a page drawn from its loaded snapshot (a headless screenshot) looked as if it had no data.
  let shownMs = 0;
  let streaming = false;

  function shown(s) {
    render(s);
    shownMs = s.timeMs;
    document.body.dataset.shownMs = String(shownMs);
  }

  function follow() {
    const es = new EventSource('api/stream');
    es.onopen = () => { streaming = true; status('live', 'live'); };
    es.addEventListener('snapshot', e => { shown(JSON.parse(e.data)); streaming = true; status('live', 'live'); });
    es.onerror = () => {
      streaming = false;
      status('reconnecting…' + (shownMs ? ' (showing ' + time(shownMs) + ')' : ''), 'down');
    };
  }

  fetch('api/snapshot', { cache: 'no-store' })
    .then(r => { if (!r.ok) { throw new Error('HTTP ' + r.status); } return r.json(); })
    .then(s => {
      shown(s);
      if (!streaming) { status('snapshot of ' + time(s.timeMs), 'loaded'); }
      follow();
    })
    .catch(e => { status('cannot load: ' + e.message, 'down'); follow(); });
})();
