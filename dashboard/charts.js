// Small SVG charts drawn with DOM calls (no chart library is installed, and the page loads nothing from a CDN).
const svgNamespace = 'http://www.w3.org/2000/svg';

function svgElement(name, attributes = {}) {
  const element = document.createElementNS(svgNamespace, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  return element;
}

/** Axis ticks at a round step (1, 2 or 5 times a power of ten), 3 to 5 of them, covering `value`. */
function niceScale(value) {
  if (!(value > 0)) return { maximum: 1, step: 0.25 };
  const rough = value / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((multiple) => multiple * power).find((candidate) => candidate >= rough) ?? 10 * power;
  return { maximum: Math.ceil(value / step - 1e-9) * step, step };
}

function legend(series) {
  const box = document.createElement('div');
  box.className = 'legend';
  for (const entry of series) {
    const item = document.createElement('span');
    const swatch = document.createElement('i');
    swatch.style.background = entry.color;
    item.append(swatch, document.createTextNode(entry.name));
    box.append(item);
  }
  return box;
}

/**
 * Lines (or bars with `kind: 'bar'`) over shared labels. Each series: {name, color, values}; `format` renders
 * axis values. Series with very different scales belong in separate charts.
 */
export function chart(container, { labels, series, format = (value) => String(value), kind = 'line' }) {
  const width = 900;
  const height = 220;
  const left = 70;
  const right = 10;
  const top = 10;
  const bottom = 28;
  const svg = svgElement('svg', { viewBox: `0 0 ${width} ${height}`, class: 'chart', role: 'img' });
  const { maximum, step } = niceScale(Math.max(0, ...series.flatMap((entry) => entry.values)));
  const plotWidth = width - left - right;
  const plotHeight = height - top - bottom;
  // Bars sit in equal slots with their label under the slot's middle; lines run from edge to edge.
  const slot = plotWidth / Math.max(labels.length, 1);
  const x = (index) =>
    kind === 'bar' ? left + index * slot + slot / 2 : left + (labels.length <= 1 ? plotWidth / 2 : (index * plotWidth) / (labels.length - 1));
  const y = (value) => top + plotHeight - (value / maximum) * plotHeight;
  for (let tick = 0; tick * step <= maximum + step / 1e6; tick += 1) {
    const value = tick * step;
    svg.append(svgElement('line', { x1: left, x2: width - right, y1: y(value), y2: y(value), stroke: '#e3e6ec' }));
    const text = svgElement('text', { x: left - 6, y: y(value) + 4, 'text-anchor': 'end', class: 'tick', 'data-value': value });
    text.textContent = format(value);
    svg.append(text);
  }
  const every = Math.max(1, Math.ceil(labels.length / 10));
  labels.forEach((label, index) => {
    if (index % every !== 0 && index !== labels.length - 1) return;
    // A line chart's first and last labels sit at the plot's edges: anchor them inwards so neither is cut off.
    const anchor = kind === 'bar' || labels.length <= 1 ? 'middle' : index === 0 ? 'start' : index === labels.length - 1 ? 'end' : 'middle';
    const text = svgElement('text', { x: x(index), y: height - 8, 'text-anchor': anchor, class: 'label' });
    text.textContent = label;
    svg.append(text);
  });
  if (kind === 'bar') {
    const barWidth = Math.max(2, (slot * 0.8) / series.length);
    series.forEach((entry, seriesIndex) => {
      entry.values.forEach((value, index) => {
        const barX = left + index * slot + slot * 0.1 + seriesIndex * barWidth;
        const rect = svgElement('rect', { x: barX, y: y(value), width: barWidth, height: Math.max(0, top + plotHeight - y(value)), fill: entry.color });
        const title = svgElement('title');
        title.textContent = `${entry.name} ${labels[index]}: ${format(value)}`;
        rect.append(title);
        svg.append(rect);
      });
    });
  } else {
    for (const entry of series) {
      const points = entry.values.map((value, index) => `${x(index)},${y(value)}`).join(' ');
      svg.append(svgElement('polyline', { points, fill: 'none', stroke: entry.color, 'stroke-width': 2 }));
      entry.values.forEach((value, index) => {
        const dot = svgElement('circle', { cx: x(index), cy: y(value), r: 3, fill: entry.color });
        const title = svgElement('title');
        title.textContent = `${entry.name} ${labels[index]}: ${format(value)}`;
        dot.append(title);
        svg.append(dot);
      });
    }
  }
  container.append(legend(series), svg);
}
