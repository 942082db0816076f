import { signLink, type LinkSecret } from '../../core/links.ts';

/** Where a store's download links point when the service serves (or redirects) them: its own `/downloads` route. */
export interface ServiceLinks {
  /** Public base URL of the service (a trailing slash is ignored). */
  readonly baseUrl: string;
  readonly secret: LinkSecret;
}

/**
 * `${baseUrl}/downloads/<token>/<fileName>`, the token from core/links.ts signing the key, the
 * expiry and the file name (a link cannot be renamed into another dataset's); the HTTP download
 * route verifies it (verifyLink).
 */
export function serviceLink(links: ServiceLinks, key: string, fileName: string, expiresAt: Date): string {
  const token = signLink(links.secret, key, Math.floor(expiresAt.getTime() / 1000), fileName);
  return `${links.baseUrl.replace(/\/+$/, '')}/downloads/${token}/${encodeURIComponent(fileName)}`;
}
