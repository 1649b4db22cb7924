// mjcore tile faces, drawn as SVG by this code (no image files): one <symbol> per tile kind in a
// hidden sprite built once, and tileSvg(tile) -> <svg><use href="#mj-5p"></svg>. Dots and
// bamboo are laid out from the pip tables below; characters, honours and flowers are glyphs.
// The tile's body (ivory face, green back edge) is CSS (.tile in table.css), so one face serves
// every size from a phone's discards to the desktop hand.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const FACE = { w: 48, h: 64 };
const INK = { red: "#c3262e", green: "#17804a", blue: "#1c4f94", black: "#1d2330", gold: "#b7791f" };
const GLYPH_FONT = "'Noto Serif CJK SC','Noto Sans CJK SC','WenQuanYi Zen Hei','WenQuanYi Micro Hei','Microsoft YaHei',serif";

function svgNode(tag, attrs, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}
function glyph(text, x, y, size, fill, weight = 700) {
  return svgNode("text", {
    x, y, "font-size": size, fill, "font-family": GLYPH_FONT, "font-weight": weight,
    "text-anchor": "middle", "dominant-baseline": "alphabetic",
  }, text);
}

// ---- dots (筒): centre, radius and colour of every pip, per number -----------------------------
const B = INK.blue, G = INK.green, R = INK.red;
const DOTS = {
  2: [[24, 18, 9, G], [24, 46, 9, B]],
  3: [[12, 13, 7.5, B], [24, 32, 7.5, R], [36, 51, 7.5, G]],
  4: [[14, 18, 8, B], [34, 18, 8, G], [14, 46, 8, G], [34, 46, 8, B]],
  5: [[13, 14, 7, B], [35, 14, 7, G], [24, 32, 7, R], [13, 50, 7, G], [35, 50, 7, B]],
  6: [[15, 12, 6.5, G], [33, 12, 6.5, G], [15, 33, 6.5, R], [33, 33, 6.5, R], [15, 52, 6.5, R], [33, 52, 6.5, R]],
  7: [[11, 9, 5.5, G], [24, 15, 5.5, G], [37, 21, 5.5, G],
    [15, 37, 5.8, R], [33, 37, 5.8, R], [15, 53, 5.8, R], [33, 53, 5.8, R]],
  8: [9, 23, 37, 51].flatMap((y) => [[15, y + 1, 6, B], [33, y + 1, 6, B]]),
  9: [[12, B], [32, R], [52, G]].flatMap(([y, c]) => [[11, y, 5.6, c], [24, y, 5.6, c], [37, y, 5.6, c]]),
};
function pip(g, cx, cy, r, color) {
  g.append(
    svgNode("circle", { cx, cy, r: r - 0.9, fill: "none", stroke: color, "stroke-width": 1.8 }),
    svgNode("circle", { cx, cy, r: r * 0.52, fill: color }),
    svgNode("circle", { cx, cy, r: r * 0.17, fill: "#fbf7ea" }),
  );
}
function drawDots(g, n) {
  if (n === 1) {
    g.append(svgNode("circle", { cx: 24, cy: 32, r: 17, fill: "none", stroke: G, "stroke-width": 3 }));
    for (let k = 0; k < 12; k++) { // a ring of petals, placed by angle
      const a = (k * Math.PI) / 6;
      g.append(svgNode("circle", { cx: 24 + 12.5 * Math.cos(a), cy: 32 + 12.5 * Math.sin(a), r: 1.8, fill: B }));
    }
    g.append(svgNode("circle", { cx: 24, cy: 32, r: 8, fill: R }), svgNode("circle", { cx: 24, cy: 32, r: 3, fill: "#fbf7ea" }));
    return;
  }
  for (const [cx, cy, r, c] of DOTS[n]) pip(g, cx, cy, r, c);
}

// ---- bamboo (条): centre and colour of every stick, per number (2..9) ---------------------------
const STICKS = {
  2: [[24, 17, G], [24, 47, B]],
  3: [[24, 17, G], [14, 47, B], [34, 47, B]],
  4: [[15, 17, B], [33, 17, G], [15, 47, G], [33, 47, B]],
  5: [[12, 17, G], [36, 17, B], [24, 32, R], [12, 47, B], [36, 47, G]],
  6: [[10, 17, G], [24, 17, G], [38, 17, G], [10, 47, B], [24, 47, B], [38, 47, B]],
  7: [[24, 11, R], [10, 32, G], [24, 32, G], [38, 32, G], [10, 53, B], [24, 53, B], [38, 53, B]],
  8: [[8, 17, G], [19, 17, G], [29, 17, G], [40, 17, G], [8, 47, B], [19, 47, B], [29, 47, B], [40, 47, B]],
  9: [11, 32, 53].flatMap((y) => [[10, y, G], [24, y, R], [38, y, B]]),
};
function stick(g, cx, cy, len, color) {
  g.append(
    svgNode("rect", { x: cx - 3, y: cy - len / 2, width: 6, height: len, rx: 3, fill: color }),
    svgNode("rect", { x: cx - 3.6, y: cy - 0.8, width: 7.2, height: 1.6, rx: 0.8, fill: color }),
    svgNode("line", { x1: cx, y1: cy - len / 2 + 2.5, x2: cx, y2: cy + len / 2 - 2.5, stroke: "#fbf7ea", "stroke-width": 0.9, "stroke-opacity": 0.7 }),
  );
}
function drawBamboo(g, n) {
  if (n === 1) { // the bird of 一条: body, head, beak, tail fan
    g.append(
      svgNode("path", { d: "M24 44 L12 60 M24 44 L20 61 M24 44 L28 61 M24 44 L36 60", stroke: R, "stroke-width": 2.4, "stroke-linecap": "round" }),
      svgNode("ellipse", { cx: 24, cy: 34, rx: 9, ry: 12, fill: G }),
      svgNode("path", { d: "M17 31 Q24 42 31 31", fill: "none", stroke: "#fbf7ea", "stroke-width": 1.4 }),
      svgNode("circle", { cx: 24, cy: 16, r: 6.5, fill: R }),
      svgNode("path", { d: "M29.5 14 L36 16.5 L29.5 19 Z", fill: INK.gold }),
      svgNode("circle", { cx: 26, cy: 14.5, r: 1.3, fill: "#fbf7ea" }),
      svgNode("path", { d: "M21 10 L19 4 M24 9.5 L24 3 M27 10 L29 4", stroke: B, "stroke-width": 1.6, "stroke-linecap": "round" }),
    );
    return;
  }
  const len = n >= 7 ? 17 : 24;
  for (const [cx, cy, c] of STICKS[n]) stick(g, cx, cy, len, c);
}

// ---- characters (萬), honours, flowers ------------------------------------------------------------
const FACE_NUMERALS = "一二三四五六七八九";
const WINDS = "東南西北";
const FLOWER_FACES = [["春", G], ["夏", R], ["秋", INK.gold], ["冬", B], ["梅", R], ["蘭", B], ["竹", G], ["菊", INK.gold]];
function drawCharacter(g, n) {
  g.append(glyph(FACE_NUMERALS[n - 1], 24, 28, 23, INK.black), glyph("萬", 24, 58, 26, R));
}
// English faces of the characters: the number as an Arabic numeral above 萬 (an indexed set)
function drawCharacterIndexed(g, n) {
  const numeral = glyph(String(n), 24, 29, 27, INK.black, 800);
  numeral.setAttribute("font-family", "system-ui, 'DejaVu Sans', sans-serif");
  g.append(numeral, glyph("萬", 24, 58, 26, R));
}
function drawHonor(g, n) {
  if (n <= 4) g.append(glyph(WINDS[n - 1], 24, 45, 34, INK.black));
  else if (n === 5) { // 白: an empty frame
    g.append(
      svgNode("rect", { x: 8, y: 9, width: 32, height: 46, rx: 3, fill: "none", stroke: B, "stroke-width": 3 }),
      svgNode("rect", { x: 13, y: 14, width: 22, height: 36, rx: 1.5, fill: "none", stroke: B, "stroke-width": 1 }),
    );
  } else if (n === 6) g.append(glyph("發", 24, 45, 34, G));
  else g.append(glyph("中", 24, 45, 36, R));
}
function drawFlower(g, n) {
  const [ch, color] = FLOWER_FACES[n - 1];
  g.append(
    glyph(ch, 24, 45, 30, color),
    glyph(String(((n - 1) % 4) + 1), 8, 12, 10, INK.red, 700),
    svgNode("path", { d: "M6 56 Q24 50 42 56", fill: "none", stroke: color, "stroke-width": 1.2, "stroke-opacity": 0.6 }),
  );
}
function drawFace(g, tile) {
  const n = Number(tile[0]);
  ({ m: drawCharacter, p: drawDots, s: drawBamboo, z: drawHonor, f: drawFlower })[tile[1]](g, n);
}

// ---- the sprite ------------------------------------------------------------------------------------
const ALL_TILES = [
  ..."mps".split("").flatMap((s) => [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => `${n}${s}`)),
  ...[1, 2, 3, 4, 5, 6, 7].map((n) => `${n}z`), ...[1, 2, 3, 4, 5, 6, 7, 8].map((n) => `${n}f`),
];
let spriteBuilt = false;
function buildTileSprite() {
  if (spriteBuilt || !document.body) return;
  const sprite = svgNode("svg", { id: "mj-tile-sprite", width: 0, height: 0, "aria-hidden": "true", focusable: "false" });
  sprite.classList.add("sprite");
  for (const tile of ALL_TILES) {
    const sym = svgNode("symbol", { id: `mj-${tile}`, viewBox: `0 0 ${FACE.w} ${FACE.h}` });
    drawFace(sym, tile);
    sprite.append(sym);
  }
  for (let n = 1; n <= 9; n++) {
    const sym = svgNode("symbol", { id: `mj-en-${n}m`, viewBox: `0 0 ${FACE.w} ${FACE.h}` });
    drawCharacterIndexed(sym, n);
    sprite.append(sym);
  }
  const back = svgNode("symbol", { id: "mj-back", viewBox: `0 0 ${FACE.w} ${FACE.h}` });
  back.append(
    svgNode("rect", { x: 5, y: 5, width: 38, height: 54, rx: 4, fill: "none", stroke: "#d7efe0", "stroke-width": 1.2, "stroke-opacity": 0.55 }),
    svgNode("path", { d: "M24 18 L34 32 L24 46 L14 32 Z", fill: "none", stroke: "#d7efe0", "stroke-width": 1.4, "stroke-opacity": 0.55 }),
  );
  sprite.append(back);
  document.body.prepend(sprite);
  spriteBuilt = true;
}
// <svg> showing one tile's face ("5p"), or the back ("?"); lang "en": the indexed characters.
function tileSvg(tile, lang) {
  buildTileSprite();
  const known = ALL_TILES.includes(tile);
  const svg = svgNode("svg", { viewBox: `0 0 ${FACE.w} ${FACE.h}`, "aria-hidden": "true", focusable: "false" });
  svg.classList.add("face");
  const id = !known ? "back" : lang === "en" && tile[1] === "m" ? `en-${tile}` : tile;
  svg.append(svgNode("use", { href: `#mj-${id}` }));
  return svg;
}
