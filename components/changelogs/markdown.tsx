import ReactMarkdown from "react-markdown";
import { isRelativeReference } from "@/lib/dashboard/urls";

// react-markdown builds React elements from the Markdown syntax tree and never sets innerHTML;
// raw HTML in the text is dropped (skipHtml) and unsafe link targets (javascript:, data:) are
// removed by its default URL transform, so changelog text can never run script here.
// An image from another site would tell that site who reads the changelog and when (a tracking
// pixel), so only this site's images load; others become a link the reader may choose to follow.
// The page's CSP (img-src 'self') enforces the same rule.
export function Markdown({ children }: { children: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown
        skipHtml
        components={{
          a: ({ node: _node, ...props }) => <a {...props} rel="noopener noreferrer nofollow" />,
          h1: ({ node: _node, ...props }) => <h2 {...props} />,
          img: ({ node: _node, src, alt, ...props }) => {
            if (typeof src !== "string" || !src) return alt ? <span>{alt}</span> : null;
            // biome-ignore lint/performance/noImgElement: an author's image of unknown size, as written; next/image needs dimensions
            if (isRelativeReference(src)) return <img src={src} alt={alt ?? ""} {...props} />;
            return (
              <a href={src} className="external-image" rel="noopener noreferrer nofollow" title={src}>
                {alt || src}
              </a>
            );
          },
        }}
      >
        {children}
      </ReactMarkdown>
    </div>
  );
}
