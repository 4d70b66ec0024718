"use strict";
// JSON.parse for the pages' records and data, keeping every integer exact:
// JavaScript's numbers are doubles, exact only up to 2^53, and a seed is a
// 64-bit integer (JSON.parse would read 13469207925531334779 as
// 13469207925531335000). Such an integer is read as the string of its
// digits instead; every other value is JSON.parse's. The pattern skips
// strings whole (so digits inside a string stay as they are) and the digits
// of a fraction or an exponent.
function parseExact(text) {
  const big = /"(?:[^"\\]|\\.)*"|(?<![\d.eE+-])-?\d{16,}(?![\d.eE])/g;
  return JSON.parse(text.replace(big, (token) =>
    token[0] === "\"" || Number.isSafeInteger(Number(token)) ? token : `"${token}"`));
}
