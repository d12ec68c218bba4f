// A finished run's share links, on its page (issue 30 item 7): make a
// read-only link to its report (and bundle) that expires after a day, a week
// or a month, or lives until revoked; list the run's links (never their
// tokens: the store keeps hashes, so a new link's address is shown this once);
// revoke one. The section calls the API for CI (/api/runs/:id/share…) with
// the session's two halves, as every client of it does; it asks for the list
// only when opened.
import type { RunRecord, ShareAnswer, ShareInfo } from '../../app/serve/console/api-types.ts';
import { getJson, messageOf, send } from '../api.ts';
import { fill, h, notice } from '../dom.ts';
import { dateTime } from '../format.ts';

const EXPIRIES = [
  { days: '1', label: 'a day' },
  { days: '7', label: 'a week' },
  { days: '30', label: 'a month' },
  { days: '', label: 'until revoked' },
] as const;
const DEFAULT_EXPIRY_DAYS = '7';

function statusOf(share: ShareInfo): 'live' | 'revoked' | 'expired' {
  return share.live ? 'live' : share.revokedAt ? 'revoked' : 'expired';
}

export function sharePart(run: RunRecord): HTMLElement {
  const base = `/api/runs/${encodeURIComponent(run.id)}`;
  const expiry = h('select', { attrs: { id: 'share-expiry', 'aria-label': 'The link is valid for' } }, ...EXPIRIES.map((e) => h('option', { attrs: { value: e.days, ...(e.days === DEFAULT_EXPIRY_DAYS ? { selected: '' } : {}) } }, e.label)));
  const create = h('button', { attrs: { type: 'button', id: 'create-share' } }, 'Create a share link');
  const made = h('div', { attrs: { id: 'new-share', 'aria-live': 'polite' } });
  const list = h('div', { attrs: { id: 'share-list' } });
  const details = h(
    'details',
    { class: 'share', attrs: { id: 'share' } },
    h('summary', null, 'Share links'),
    h('p', { class: 'hint' }, 'Anyone with a link sees the run’s report and can download its bundle, without signing in, until the link expires or is revoked.'),
    h('div', { class: 'toolbar' }, h('label', null, 'Valid for ', expiry), create),
    made,
    list,
  );

  const refresh = async (): Promise<void> => {
    try {
      const { shares } = await getJson<{ shares: ShareInfo[] }>(`${base}/shares`);
      fill(list, shares.length ? shareTable(shares) : h('p', { class: 'muted' }, 'No share link yet.'));
    } catch (error) {
      fill(list, notice('danger', messageOf(error)));
    }
  };

  const revoke = (share: ShareInfo, button: HTMLButtonElement) => {
    if (!confirm('Revoke this share link? Whoever holds it can no longer open the report.')) return;
    button.disabled = true;
    send<{ revoked: number }>('DELETE', `${base}/shares/${encodeURIComponent(share.id)}`)
      .then(refresh)
      .catch((error: unknown) => fill(list, notice('danger', messageOf(error))));
  };

  const shareTable = (shares: ShareInfo[]): HTMLElement =>
    h(
      'table',
      { class: 'list shares', attrs: { id: 'shares' } },
      h('thead', null, h('tr', null, ...['Made', 'By', 'Expires', 'Status', ''].map((t) => h('th', null, t)))),
      h(
        'tbody',
        null,
        ...shares.map((share) => {
          const button = share.live ? h('button', { class: 'revoke-share', attrs: { type: 'button' } }, 'Revoke') : null;
          button?.addEventListener('click', () => revoke(share, button));
          return h(
            'tr',
            { class: 'share-row', dataset: { shareId: share.id, status: statusOf(share) } },
            h('td', null, dateTime(share.createdAt)),
            h('td', null, share.createdBy ?? ''),
            h('td', null, share.expiresAt ? dateTime(share.expiresAt) : 'when revoked'),
            h('td', null, statusOf(share)),
            h('td', null, button),
          );
        }),
      ),
    );

  details.addEventListener('toggle', () => {
    if (details.open && !list.childElementCount) void refresh();
  });
  create.addEventListener('click', () => {
    create.disabled = true;
    const body = expiry.value ? { expiresInDays: Number(expiry.value) } : {};
    send<ShareAnswer>('POST', `${base}/share`, body)
      .then(({ url, share }) => {
        const address = h('input', { attrs: { type: 'text', id: 'new-share-url', readonly: '', value: new URL(url, location.origin).href, 'aria-label': 'The new share link' } });
        const until = share.expiresAt ? `It is valid until ${dateTime(share.expiresAt)}.` : 'It is valid until you revoke it.';
        fill(made, notice('info', h('p', null, `Copy the link now: it is shown only this once. ${until}`), address));
        address.select();
        return refresh();
      })
      .catch((error: unknown) => fill(made, notice('danger', messageOf(error))))
      .finally(() => (create.disabled = false));
  });
  return details;
}
