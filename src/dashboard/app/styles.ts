/** The dashboard's CSS (uPlot's, our layout, our components), inlined in the bundle and added at start. */
import uplotCss from "uplot/dist/uPlot.min.css" with { type: "text" };
import baseCss from "./style.css" with { type: "text" };
import componentCss from "./components.css" with { type: "text" };

/** Adds the stylesheets to the document. */
export function installStyles(): void {
  const style = document.createElement("style");
  style.textContent = `${uplotCss}\n${baseCss}\n${componentCss}`;
  document.head.appendChild(style);
}
