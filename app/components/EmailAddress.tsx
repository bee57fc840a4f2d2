import { Fragment } from "react";

/**
 * An e-mail address that, when it must wrap, wraps after a dot or before the @
 * ("owner.riverside." / "bakery@private.test"), never mid-word. It is an inline
 * block, so an address that fits on a line of its own moves there whole; only a
 * longer one breaks, at those places (the page's `overflow-wrap` breaks inside a
 * word only where a part is longer than the line). With `href` it is the link.
 */
export function EmailAddress({ address, href }: { address: string; href?: string }) {
  const parts = address.split(/(?<=\.)|(?=@)/).map((part, i) => (
    <Fragment key={i}>
      {i ? <wbr /> : null}
      {part}
    </Fragment>
  ));
  return href ? (
    <a className="email" href={href}>
      {parts}
    </a>
  ) : (
    <span className="email">{parts}</span>
  );
}
