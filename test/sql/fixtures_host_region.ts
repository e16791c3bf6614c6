/** The host/region table the GROUPING SETS and QUALIFY tests read: two hosts, two regions, four rows. */
export const HOST_REGION_SETUP = [
  "CREATE TABLE t (ts TIMESTAMP TIME INDEX, host STRING, region STRING, v DOUBLE, PRIMARY KEY (host, region))",
  "INSERT INTO t VALUES (1000, 'a', 'east', 1), (2000, 'a', 'west', 3), (3000, 'b', 'east', 5), " +
  "(4000, 'b', 'east', 7)",
];
