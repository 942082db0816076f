/**
 * Request body limits by route. Only the two query routes take a body: the largest legal query
 * (5,000 geography selections of up to 200 characters) is about 1 MB of JSON. Every other route
 * reads none, so anything sent to one is refused past a few kilobytes, before it is read.
 */
export const QUERY_BODY_LIMIT = 1_100_000;
export const DEFAULT_BODY_LIMIT = 16 * 1024;
