// The study's report as one HTML page: the paper's figures as charts (Chart.js, inlined from its
// package so the page opens offline and fetches nothing) each with its numbers in a table beneath, and
// the robot's behaviour figures from `parceiro report`. Chart.js (MIT, the most used chart library on
// npm, kept up to date) draws bars; 95% intervals are drawn as whiskers by a few lines of plugin here.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Report } from '../../offline/index.js';
import { formatReport } from '../../offline/index.js';
import type { Study } from '../study-file.js';
import type { GroupFigure, StudyFigures } from './study-figures.js';
import type { MeanFigure, ShareFigure } from './stats.js';

const esc = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const fx = (x: number | null | undefined, d = 1): string => (x === null || x === undefined ? '–' : x.toFixed(d));
const ci = (c: [number, number] | null, d = 1): string => (c ? `[${fx(c[0], d)}, ${fx(c[1], d)}]` : '–');
const pct = (x: number | null): string => (x === null ? '–' : `${(x * 100).toFixed(0)}%`);

let chartSource: string | null = null;
/** Chart.js's browser build, from the installed package. */
function chartJs(): string {
  if (chartSource === null) {
    const main = createRequire(import.meta.url).resolve('chart.js');
    chartSource = readFileSync(join(dirname(main), 'chart.umd.min.js'), 'utf8');
  }
  return chartSource;
}

/** Words for groups. */
const GROUP_WORDS: Record<string, string> = {
  robot: 'robot as partner',
  human: 'a person as partner',
  bot: 'a simulated partner',
};
/** A partner group in words; a condition keeps its id (a condition may be called robot). */
const partnerWord = (g: string): string => GROUP_WORDS[g] ?? g;
const asIs = (g: string): string => g;

const COLOURS = ['#1c7ed6', '#e8590c', '#2b8a3e', '#ae3ec9', '#f59f00', '#0ca678', '#c92a2a', '#495057'];

/** A bar chart's spec for the page's script: labels, datasets (bars with their intervals), y range. */
interface ChartSpec {
  id: string;
  labels: string[];
  datasets: {
    label: string;
    data: (number | null)[];
    ci?: ([number, number] | null)[];
    colour: string | string[];
    type?: 'line';
  }[];
  y: { title: string; min?: number; max?: number };
  stacked?: boolean;
}

const mean = (m: MeanFigure): number | null => m.mean;

function prePostChart(
  id: string,
  groups: readonly GroupFigure[],
  scale: string,
  range: [number, number] | null,
  word: (g: string) => string,
): ChartSpec {
  // Only the phases the scale was asked in (Godspeed, say, only after the games).
  const phases = (['pre', 'post'] as const).filter((p) => groups.some((g) => g[p].n > 0));
  const words = { pre: 'before the games', post: 'after the games' };
  return {
    id,
    labels: phases.map((p) => words[p]),
    datasets: groups.map((g, i) => ({
      label: `${word(g.group)} (n ${phases.map((p) => g[p].n).join('/')})`,
      data: phases.map((p) => mean(g[p])),
      ci: phases.map((p) => g[p].ci),
      colour: COLOURS[i % COLOURS.length]!,
    })),
    y: { title: `${scale}: mean, 95% interval`, ...(range ? { min: range[0], max: range[1] } : {}) },
  };
}

function groupTable(groups: readonly GroupFigure[], head: string, word: (g: string) => string): string {
  const rows = groups
    .map(
      (g) =>
        `<tr><th scope="row">${esc(word(g.group))}</th><td>${g.pre.n}</td><td>${fx(g.pre.mean)}</td><td>${fx(g.pre.sd)}</td><td>${ci(g.pre.ci)}</td><td>${g.post.n}</td><td>${fx(g.post.mean)}</td><td>${fx(g.post.sd)}</td><td>${ci(g.post.ci)}</td><td>${g.change.n}</td><td>${fx(g.change.mean)}</td><td>${ci(g.change.ci)}</td></tr>`,
    )
    .join('');
  return `<table><thead><tr><th>${esc(head)}</th><th>n before</th><th>mean</th><th>SD</th><th>95% interval</th><th>n after</th><th>mean</th><th>SD</th><th>95% interval</th><th>n both</th><th>change</th><th>95% interval</th></tr></thead><tbody>${rows}</tbody></table>`;
}

const shareText = (s: ShareFigure): string =>
  `${s.count} of ${s.n} (${pct(s.share)}, 95% interval ${s.ci ? `${pct(s.ci[0])} to ${pct(s.ci[1])}` : '–'})`;
const marginText = (m: MeanFigure): string =>
  `${m.mean === null ? '–' : `${m.mean >= 0 ? '+' : ''}${fx(m.mean, 2)}`} victories (SD ${fx(m.sd, 2)}, 95% interval ${ci(m.ci, 2)}, n ${m.n})`;

export interface StudyReportInput {
  study: Study;
  figures: StudyFigures;
  behaviour: Report | null;
  notes: readonly string[];
  /** When the report was made (ISO 8601). */
  at: string;
  /** Each scale's range (its questionnaire's), for a fixed y axis. */
  ranges?: Record<string, [number, number]>;
}

export function studyReportHtml(r: StudyReportInput): string {
  const charts: ChartSpec[] = [];
  const sections: string[] = [];
  const f = r.figures;

  // Questionnaire scales.
  // Trust first (the paper's figure), then the others in the order answered.
  const scales = [...f.scales].sort((a, b) => Number(b.scale === 'trust') - Number(a.scale === 'trust'));
  for (const s of scales) {
    const range = r.ranges?.[s.scale] ?? null;
    const byPartner = prePostChart(`scale-${s.scale}-partner`, s.byPartner, s.scale, range, partnerWord);
    const byCondition = prePostChart(`scale-${s.scale}-condition`, s.byCondition, s.scale, range, asIs);
    charts.push(byPartner, byCondition);
    sections.push(`<section class="scale" data-scale="${esc(s.scale)}">
<h2>${esc(s.scale.charAt(0).toUpperCase() + s.scale.slice(1))}${byPartner.labels.length > 1 ? ' before and after' : `, ${byPartner.labels[0] ?? ''}`} (${esc(s.questionnaires.join(', '))})</h2>
<div class="pair"><figure><figcaption>By partner: who sat opposite the participant</figcaption><div class="chart"><canvas id="${byPartner.id}"></canvas></div></figure>
<figure><figcaption>By condition</figcaption><div class="chart"><canvas id="${byCondition.id}"></canvas></div></figure></div>
${groupTable(s.byPartner, 'partner', partnerWord)}
${groupTable(s.byCondition, 'condition', asIs)}
<p class="hint">Complete answers only (a questionnaire left halfway has no score); the change is of the participants who answered both.</p>
</section>`);
  }
  if (!f.scales.length) sections.push('<section><h2>Questionnaires</h2><p>No scored answers yet.</p></section>');

  // The robot team's results.
  const conditions = [...new Set(f.sessions.map((s) => s.condition))];
  const margins: ChartSpec = {
    id: 'margins',
    labels: f.sessions.map((s) => s.session),
    datasets: [
      {
        label: 'victory margin of the robot team',
        data: f.sessions.map((s) => s.margin),
        colour: f.sessions.map((s) => COLOURS[conditions.indexOf(s.condition) % COLOURS.length]!),
      },
      { label: 'mean', data: f.sessions.map(() => f.margin.mean), colour: '#212529', type: 'line' },
    ],
    y: { title: 'victories: robot team − others' },
  };
  charts.push(margins);
  const condRows = f.byCondition
    .map(
      (c) =>
        `<tr><th scope="row">${esc(c.condition)}</th><td>${shareText(c.winRate)}</td><td>${marginText(c.margin)}</td></tr>`,
    )
    .join('');
  sections.push(`<section id="results">
<h2>The robot team's results</h2>
<p class="headline">Sessions won by the robot's team: <strong>${shareText(f.winRate)}</strong>. Mean victory margin per session: <strong>${marginText(f.margin)}</strong>.</p>
<figure><figcaption>Victory margin per session (colour: condition ${conditions.map((c, i) => `<span class="key" style="background:${COLOURS[i % COLOURS.length]}"></span>${esc(c)}`).join(' ')})</figcaption><div class="chart wide"><canvas id="margins"></canvas></div></figure>
<table><thead><tr><th>condition</th><th>sessions won</th><th>victory margin</th></tr></thead><tbody>${condRows}</tbody></table>
<p class="hint">A session is won by victories (61-90 points: 1, 91-119: 2, 120: 4); the interval of the share is Wilson's, of the mean Student's t.</p>
</section>`);

  // The robot's behaviour (parceiro report).
  if (r.behaviour) {
    const o = r.behaviour.overall;
    const types = Object.entries(o.emotions.types)
      .filter(([, t]) => t.strongest > 0)
      .sort((a, b) => b[1].strongest - a[1].strongest);
    const emotions: ChartSpec = {
      id: 'emotions',
      labels: types.map(([t]) => t),
      datasets: [
        {
          label: 'share of reactions in which it was the strongest',
          data: types.map(([, t]) => (t.strongestShare ?? 0) * 100),
          colour: '#ae3ec9',
        },
      ],
      y: { title: '% of emotions messages', min: 0 },
    };
    const results = (['won', 'lost', 'drawn'] as const).filter((k) => o.faces.byResult[k].games > 0);
    const faceNames = Object.keys(o.faces.byResult.won.during);
    const FACE_COLOURS: Record<string, string> = {
      happy: '#f2c200',
      sad: '#3b6fb6',
      angry: '#e03131',
      surprised: '#f08c00',
      scared: '#7b4fb0',
      disgusted: '#2f9e44',
      neutral: '#adb5bd',
    };
    const faces: ChartSpec = {
      id: 'faces',
      labels: results.map((k) => `${k} (${o.faces.byResult[k].games} games)`),
      datasets: faceNames.map((face) => ({
        label: face,
        data: results.map((k) => (o.faces.byResult[k].during[face] ?? 0) + (o.faces.byResult[k].after[face] ?? 0)),
        colour: FACE_COLOURS[face] ?? '#999999',
      })),
      y: { title: 'faces shown (during and after the game)', min: 0 },
      stacked: true,
    };
    charts.push(emotions, faces);
    const checks = Object.entries(o.checks)
      .filter(([k]) => k !== 'reactionLatency')
      .map(([k, c]) => {
        const check = c as { count: number; applicable: number; examined: number };
        return `<tr><th scope="row">${esc(k)}</th><td>${check.count}</td><td>${check.applicable}</td><td>${check.examined}</td></tr>`;
      })
      .join('');
    sections.push(`<section id="behaviour">
<h2>The robot's behaviour (parceiro report, ${o.sessions} sessions, ${o.games} games)</h2>
<p>Mood: median ${fx(o.mood.median, 2)} over ${o.mood.messages} reactions; lines: ${o.lines.spoken} spoken, ${o.lines.dropped} dropped; face changes per trick: mean ${fx(o.faces.changes.perTrick.mean, 2)}; reaction latency: median ${fx(o.checks.reactionLatency.p50, 0)} ms.</p>
<div class="pair"><figure><figcaption>Its strongest emotion</figcaption><div class="chart"><canvas id="emotions"></canvas></div></figure>
<figure><figcaption>Its faces by the game's result for its team</figcaption><div class="chart"><canvas id="faces"></canvas></div></figure></div>
<table><thead><tr><th>check</th><th>findings</th><th>applicable</th><th>examined</th></tr></thead><tbody>${checks}</tbody></table>
<details><summary>The whole text of parceiro report</summary><pre>${esc(formatReport(r.behaviour))}</pre></details>
</section>`);
  } else sections.push('<section id="behaviour"><h2>The robot\'s behaviour</h2><p>No recordings yet.</p></section>');

  const notes = r.notes.length
    ? `<section id="notes"><h2>Notes</h2><ul>${r.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul></section>`
    : '';
  const data = JSON.stringify(charts).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(r.study.title)}: study report</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:15px/1.45 system-ui,sans-serif;color:#212529;margin:0 auto;max-width:1180px;padding:24px}
h1{font-size:24px;margin:0 0 4px}h2{font-size:19px;margin:28px 0 8px;border-bottom:1px solid #dee2e6;padding-bottom:4px}
.meta{color:#495057}.hint{color:#6c757d;font-size:13px}
.pair{display:grid;grid-template-columns:1fr 1fr;gap:20px}
figure{margin:8px 0}figcaption{font-weight:600;margin-bottom:4px}
.chart{position:relative;height:300px}.chart.wide{height:260px}
table{border-collapse:collapse;margin:10px 0;font-size:13px}th,td{border:1px solid #dee2e6;padding:3px 7px;text-align:right}
th[scope=row],thead th:first-child{text-align:left}thead th{background:#f1f3f5}
.key{display:inline-block;width:11px;height:11px;margin:0 3px 0 8px;border-radius:2px}
pre{font-size:12px;background:#f8f9fa;padding:10px;overflow:auto}
@media (max-width:800px){.pair{grid-template-columns:1fr}}
</style></head><body>
<h1>${esc(r.study.title)}</h1>
<p class="meta">Study <strong>${esc(r.study.id)}</strong>: ${r.study.sessions} sessions planned of ${r.study.participantsPerSession} participant(s) and the robot, ${r.study.games} game(s) each; assignment ${esc(r.study.assignment.scheme)}; conditions ${r.study.conditions.map((c) => esc(c.id)).join(', ')}. Report made ${esc(r.at)}. Participants appear by code only.</p>
${sections.join('\n')}
${notes}
<script>${chartJs().replace(/<\/script/gi, '<\\/script')}</script>
<script>
(function () {
  var specs = ${data};
  // 95% intervals as whiskers over each bar (the dataset's ci, one [low, high] per bar).
  var whiskers = {
    id: 'whiskers',
    afterDatasetsDraw: function (chart) {
      var ctx = chart.ctx, y = chart.scales.y, area = chart.chartArea;
      chart.data.datasets.forEach(function (ds, i) {
        if (!ds.ci || !chart.isDatasetVisible(i)) return;
        chart.getDatasetMeta(i).data.forEach(function (bar, j) {
          var c = ds.ci[j];
          if (!c) return;
          var top = y.getPixelForValue(c[1]), bottom = y.getPixelForValue(c[0]), w = Math.min(10, bar.width / 3);
          // Kept inside the plot: an interval past the axis ends at its edge, without a cap.
          ctx.save(); ctx.beginPath(); ctx.rect(area.left, area.top, area.right - area.left, area.bottom - area.top); ctx.clip();
          ctx.strokeStyle = '#212529'; ctx.lineWidth = 1.5; ctx.beginPath();
          ctx.moveTo(bar.x, top); ctx.lineTo(bar.x, bottom);
          ctx.moveTo(bar.x - w, top); ctx.lineTo(bar.x + w, top);
          ctx.moveTo(bar.x - w, bottom); ctx.lineTo(bar.x + w, bottom);
          ctx.stroke(); ctx.restore();
        });
      });
    }
  };
  specs.forEach(function (s) {
    var el = document.getElementById(s.id);
    if (!el) return;
    new Chart(el, {
      type: 'bar',
      data: {
        labels: s.labels,
        datasets: s.datasets.map(function (d) {
          return d.type === 'line'
            ? { type: 'line', label: d.label, data: d.data, borderColor: d.colour, borderDash: [6, 4], pointRadius: 0, borderWidth: 1.5 }
            : { label: d.label, data: d.data, ci: d.ci, backgroundColor: d.colour, borderColor: d.colour };
        })
      },
      options: {
        animation: false, responsive: true, maintainAspectRatio: false,
        plugins: { legend: { position: 'bottom' } },
        scales: {
          x: { stacked: !!s.stacked },
          y: { stacked: !!s.stacked, min: s.y.min, max: s.y.max, title: { display: true, text: s.y.title } }
        }
      },
      plugins: [whiskers]
    });
  });
  document.body.dataset.charts = String(specs.length);
})();
</script>
</body></html>
`;
}
