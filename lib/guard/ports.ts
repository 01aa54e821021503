/**
 * Ports Glance never connects to, whatever the host (exempt ones included: this is protocol safety, not an
 * address rule). An HTTP request sent to a text protocol can be read by it as commands (cross-protocol attacks),
 * so browsers refuse these ports; Glance does the same for the page, every redirect hop, every ping and every
 * request its Chromium makes.
 */

/** The Fetch Standard's bad ports (https://fetch.spec.whatwg.org/#port-blocking, with 4190 and 6679 of whatwg/fetch#1663). */
const FETCH_BAD_PORTS = [
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110,
  111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532,
  540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061,
  6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
];

/**
 * Datastores and admin APIs that accept a request's lines as commands or run unauthenticated when exposed by
 * mistake, and that no web page is served from: Glance must not be a relay to them, even on a public address.
 * Redis and memcached parse an HTTP request line by line as commands (the classic SSRF targets); the others are
 * databases, brokers and control planes.
 */
const SERVICE_PORTS = [
  0, // never a destination
  1433, // SQL Server
  1521, // Oracle
  2375, 2376, // Docker Engine API
  2379, 2380, // etcd
  3306, // MySQL
  3389, // RDP
  5432, // PostgreSQL
  5672, // AMQP
  6379, // Redis
  9092, // Kafka
  9200, 9300, // Elasticsearch
  10250, // kubelet
  11211, // memcached
  27017, // MongoDB
];

const BAD_PORTS: ReadonlySet<number> = new Set([...FETCH_BAD_PORTS, ...SERVICE_PORTS]);

/** The port a URL connects to: its own, else its scheme's default. */
export const portOf = (url: URL): number => (url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port));

export const isBadPort = (port: number): boolean => BAD_PORTS.has(port);
