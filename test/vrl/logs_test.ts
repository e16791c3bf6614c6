/** Log-line parsers and grok. */

import { fails, ok, rejects, table } from "./harness.ts";

table("parse_syslog", [
  ok(
    `parse_syslog!(s'<13>1 2020-03-13T20:45:38.119Z dynamicwireless.name non 2426 ID931 [exampleSDID@32473 iut="3" eventSource= "Application" eventID="1011"] Try to override the THX port, maybe it will reboot the neural interface!')`,
    {
      appname: "non",
      "exampleSDID@32473": { eventID: "1011", eventSource: "Application", iut: "3" },
      facility: "user",
      hostname: "dynamicwireless.name",
      message: "Try to override the THX port, maybe it will reboot the neural interface!",
      msgid: "ID931",
      procid: 2426,
      severity: "notice",
      timestamp: "2020-03-13T20:45:38.119Z",
      version: 1,
    },
  ),
  ok(`parse_syslog!("<34>1 2003-10-11T22:14:15.003Z mymachine.example.com su - ID47 - 'su root' failed")`, {
    appname: "su",
    facility: "auth",
    hostname: "mymachine.example.com",
    message: "'su root' failed",
    msgid: "ID47",
    severity: "crit",
    timestamp: "2003-10-11T22:14:15.003Z",
    version: 1,
  }),
  ok(
    `x = parse_syslog!("<34>Oct 11 22:14:15 mymachine su[123]: 'su root' failed for lonvick"); del(x.timestamp); x`,
    {
      appname: "su",
      facility: "auth",
      hostname: "mymachine",
      message: "'su root' failed for lonvick",
      procid: 123,
      severity: "crit",
    },
  ),
  ok(
    `format_timestamp!(parse_syslog!("<13>Feb  5 17:32:18 10.0.0.99 app: Use the BFG!").timestamp, "%m-%d %H:%M:%S")`,
    "02-05 17:32:18",
  ),
  fails(`parse_syslog!("not syslog")`, "unable to parse input as valid syslog message"),
  rejects(`parse_syslog("x")`, "E100"),
]);

table("parse_common_log / parse_apache_log", [
  ok(
    `parse_common_log!("127.0.0.1 bob frank [10/Oct/2000:13:55:36 -0700] \\"GET /apache_pb.gif HTTP/1.0\\" 200 2326")`,
    {
      host: "127.0.0.1",
      identity: "bob",
      message: "GET /apache_pb.gif HTTP/1.0",
      method: "GET",
      path: "/apache_pb.gif",
      protocol: "HTTP/1.0",
      size: 2326,
      status: 200,
      timestamp: "2000-10-10T20:55:36Z",
      user: "frank",
    },
  ),
  ok(`parse_common_log!("127.0.0.1 - - [10/Oct/2000:13:55:36 +0000] \\"-\\" 400 -")`, {
    host: "127.0.0.1",
    status: 400,
    timestamp: "2000-10-10T13:55:36Z",
  }),
  ok(
    `parse_common_log!("1.2.3.4 - - [2000-10-10 13:55:36] \\"GET / HTTP/1.1\\" 200 1", "%Y-%m-%d %H:%M:%S").timestamp`,
    "2000-10-10T13:55:36Z",
  ),
  fails(`parse_common_log!("garbage")`, "failed parsing common log line"),
  ok(
    `parse_apache_log!("127.0.0.1 bob frank [10/Oct/2000:13:55:36 -0700] \\"GET /apache_pb.gif HTTP/1.0\\" 200 2326 \\"http://www.seniorinfomediaries.com/vertical/channels/front-end/bandwidth\\" \\"Mozilla/5.0 (X11; Linux i686; rv:5.0) Gecko/1945-10-12 Firefox/37.0\\"", format: "combined")`,
    {
      agent: "Mozilla/5.0 (X11; Linux i686; rv:5.0) Gecko/1945-10-12 Firefox/37.0",
      host: "127.0.0.1",
      identity: "bob",
      message: "GET /apache_pb.gif HTTP/1.0",
      method: "GET",
      path: "/apache_pb.gif",
      protocol: "HTTP/1.0",
      referrer: "http://www.seniorinfomediaries.com/vertical/channels/front-end/bandwidth",
      size: 2326,
      status: 200,
      timestamp: "2000-10-10T20:55:36Z",
      user: "frank",
    },
  ),
  ok(
    `parse_apache_log!("[01/Mar/2021:12:00:19 +0000] [ab:alert] [pid 4803:tid 3814] [client 147.159.108.175:24259] I'll bypass the haptic COM bandwidth, that should matrix the CSS driver!", "error")`,
    {
      client: "147.159.108.175",
      message: "I'll bypass the haptic COM bandwidth, that should matrix the CSS driver!",
      module: "ab",
      pid: 4803,
      port: 24259,
      severity: "alert",
      thread: "3814",
      timestamp: "2021-03-01T12:00:19Z",
    },
  ),
  ok(
    `parse_apache_log!("[Sat Oct 10 13:55:36.123456 2000] [core:error] [pid 42] boom", "error").timestamp`,
    "2000-10-10T13:55:36.123456Z",
  ),
  rejects(`parse_apache_log!("x", "weird")`, "E610"),
]);

table("parse_nginx_log", [
  ok(
    `parse_nginx_log!(s'172.17.0.1 - alice [01/Apr/2021:12:02:31 +0000] "POST /not-found HTTP/1.1" 404 153 "http://localhost/somewhere" "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/72.0.3626.119 Safari/537.36" "2.75"', "combined")`,
    {
      agent:
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/72.0.3626.119 Safari/537.36",
      client: "172.17.0.1",
      compression: "2.75",
      method: "POST",
      path: "/not-found",
      protocol: "HTTP/1.1",
      referer: "http://localhost/somewhere",
      request: "POST /not-found HTTP/1.1",
      size: 153,
      status: 404,
      timestamp: "2021-04-01T12:02:31Z",
      user: "alice",
    },
  ),
  ok(
    `parse_nginx_log!(s'2021/04/01 13:02:31 [error] 31#31: *1 open() "/usr/share/nginx/html/not-found" failed (2: No such file or directory), client: 172.17.0.1, server: localhost, request: "POST /not-found HTTP/1.1", host: "localhost:8081"', "error")`,
    {
      cid: 1,
      client: "172.17.0.1",
      host: "localhost:8081",
      message: 'open() "/usr/share/nginx/html/not-found" failed (2: No such file or directory)',
      pid: 31,
      request: "POST /not-found HTTP/1.1",
      server: "localhost",
      severity: "error",
      tid: 31,
      timestamp: "2021-04-01T13:02:31Z",
    },
  ),
  fails(`parse_nginx_log!("nope", "combined")`, "failed parsing"),
  rejects(`parse_nginx_log!("x", "common")`, "E610"),
]);

table("parse_grok", [
  ok(
    `parse_grok!("2020-10-02T23:22:12.223222Z info Hello world", "%{TIMESTAMP_ISO8601:timestamp} %{LOGLEVEL:level} %{GREEDYDATA:message}")`,
    {
      timestamp: "2020-10-02T23:22:12.223222Z",
      level: "info",
      message: "Hello world",
    },
  ),
  ok(
    `parse_grok!("55.3.244.1 GET /index.html 15824 0.043", "%{IP:client} %{WORD:method} %{URIPATHPARAM:request} %{NUMBER:bytes} %{NUMBER:duration}")`,
    {
      client: "55.3.244.1",
      method: "GET",
      request: "/index.html",
      bytes: "15824",
      duration: "0.043",
    },
  ),
  ok(
    `parse_grok!("127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] \\"GET /apache_pb.gif HTTP/1.0\\" 200 2326", "%{COMMONAPACHELOG}")`,
    {
      auth: "frank",
      bytes: "2326",
      clientip: "127.0.0.1",
      httpversion: "1.0",
      ident: "-",
      rawrequest: "",
      request: "/apache_pb.gif",
      response: "200",
      timestamp: "10/Oct/2000:13:55:36 -0700",
      verb: "GET",
    },
  ),
  ok(`parse_grok!("Oct 11 22:14:15 host sshd[42]: msg", "%{SYSLOGBASE} %{GREEDYDATA:msg}")`, {
    facility: "",
    priority: "",
    timestamp: "Oct 11 22:14:15",
    logsource: "host",
    program: "sshd",
    pid: "42",
    msg: "msg",
  }),
  ok(`parse_grok!("id=42 ratio=0.5", "id=%{INT:id:int} ratio=%{NUMBER:ratio:float}")`, {
    id: 42,
    ratio: 0.5,
  }),
  ok(`parse_grok!("fe80::1 and aa:bb:cc:dd:ee:ff", "%{IPV6:ip} and %{MAC:mac}")`, {
    ip: "fe80::1",
    mac: "aa:bb:cc:dd:ee:ff",
  }),
  ok(`parse_grok!("a \\"quoted string\\" b", "%{QS:q}")`, { q: '"quoted string"' }),
  fails(`parse_grok!("abc", "%{INT:n}")`, "unable to parse input with grok pattern"),
  rejects(`parse_grok!("abc", "%{NOPE:n}")`, "E610|could not be found"),
  ok(`parse_groks!("v=1", ["%{INT:a} x", "v=%{INT:v}"])`, { v: "1" }),
  ok(`parse_groks!("k: 9", ["%{_key}: %{INT:n}"], aliases: {"_key": "%{WORD:key}"})`, { key: "k", n: "9" }),
  fails(`parse_groks!("zzz", ["%{INT:a}"])`, "unable to parse"),
]);
