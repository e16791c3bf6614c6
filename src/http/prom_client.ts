/**
 * The parts of prom-client Petrel uses, each from its own file: the package's index also loads its
 * push gateway (node:http, node:https, node:url), cluster aggregation (node:cluster) and default
 * metrics, whose Node polyfills cost an idle server ~3.5 MB of RSS (measured) for nothing.
 */
import type client from "prom-client";
import RegistryImpl from "prom-client/lib/registry.js";
import CounterImpl from "prom-client/lib/counter.js";
import GaugeImpl from "prom-client/lib/gauge.js";
import HistogramImpl from "prom-client/lib/histogram.js";

/** prom-client's `Registry`. */
export const Registry = RegistryImpl as typeof client.Registry;
/** prom-client's `Registry` type. */
export type Registry = client.Registry;
/** prom-client's `Counter`. */
export const Counter = CounterImpl as typeof client.Counter;
/** prom-client's `Counter` type. */
export type Counter<T extends string = string> = client.Counter<T>;
/** prom-client's `Gauge`. */
export const Gauge = GaugeImpl as typeof client.Gauge;
/** prom-client's `Gauge` type. */
export type Gauge<T extends string = string> = client.Gauge<T>;
/** prom-client's `Histogram`. */
export const Histogram = HistogramImpl as typeof client.Histogram;
/** prom-client's `Histogram` type. */
export type Histogram<T extends string = string> = client.Histogram<T>;
