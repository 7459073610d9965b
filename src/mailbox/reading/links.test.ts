import { expect, test } from "vitest";
import { linksOf, targetsOf } from "./links.ts";

test("a person reviewing HTML sees every link target and everything it would load, as written, each once", () => {
  const html = `<style>p { background: url("https://cdn.example/p.png") }</style>
<a href="https://shown.example/login">https://bank.example</a><a href="mailto:x@example.com">mail</a>
<a href="javascript:steal()">click</a><area href="https://map.example/a"><a href="https://shown.example/login">again</a>
<img src="https://track.example/pixel.gif" srcset="https://img.example/1x.png 1x, https://img.example/2x.png 2x">
<table background="https://bg.example/t.png"><tr><td style="background-image:url('https://cdn.example/td.png')">x</td></tr></table>
<link rel="stylesheet" href="https://css.example/s.css"><video poster="https://v.example/poster.jpg"></video>`;
  expect(targetsOf(html)).toEqual({
    links: ["https://shown.example/login", "mailto:x@example.com", "javascript:steal()", "https://map.example/a"],
    loads: [
      "https://cdn.example/p.png",
      "https://track.example/pixel.gif",
      "https://img.example/1x.png",
      "https://img.example/2x.png",
      "https://bg.example/t.png",
      "https://cdn.example/td.png",
      "https://css.example/s.css",
      "https://v.example/poster.jpg",
    ],
  });
  // What an agent reads of received mail keeps to web links.
  expect(linksOf(null, html).map((link) => link.url)).toEqual(["https://shown.example/login"]);
});

test("at most 200 of each", () => {
  const html = Array.from({ length: 300 }, (_, n) => `<a href="https://a.example/${n}"><img src="/i/${n}.png"></a>`);
  const { links, loads } = targetsOf(html.join(""));
  expect([links.length, loads.length]).toEqual([200, 200]);
});
