import ReactMarkdown from "react-markdown";

// react-markdown builds React elements from the Markdown syntax tree and never sets innerHTML;
// raw HTML in the text is dropped (skipHtml) and unsafe link targets (javascript:, data:) are
// removed by its default URL transform, so changelog text can never run script here.
export function Markdown({ children }: { children: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown
        skipHtml
        components={{
          a: ({ node: _node, ...props }) => <a {...props} rel="noopener noreferrer nofollow" />,
          h1: ({ node: _node, ...props }) => <h2 {...props} />,
        }}
      >
        {children}
      </ReactMarkdown>
    </div>
  );
}
