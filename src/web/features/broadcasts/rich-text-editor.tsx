import { BROADCAST_PLACEHOLDERS } from '@domain/broadcasts';
import { EditorContent, useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { cn, IconButton, Select } from '@web/ui';
import { Bold, Italic, List, ListOrdered } from 'lucide-react';
import { useEffect } from 'react';

/**
 * The broadcast body: Tiptap (ProseMirror) with the few marks a mail needs, and a menu that inserts
 * a placeholder at the cursor. The server sanitises what it gets whatever the editor sends.
 */
export function RichTextEditor({
  value,
  onChange,
  label,
  invalid,
}: {
  value: string;
  onChange: (html: string) => void;
  label: string;
  invalid?: boolean;
}) {
  const editor = useEditor({
    extensions: [StarterKit.configure({ heading: { levels: [2, 3] }, codeBlock: false, code: false })],
    content: value,
    immediatelyRender: false,
    editorProps: {
      attributes: {
        'aria-label': label,
        role: 'textbox',
        'aria-multiline': 'true',
        class:
          'prose-sm min-h-40 max-h-80 overflow-y-auto px-3 py-2 outline-none [&_ul]:list-disc [&_ol]:list-decimal [&_ul]:pl-5 [&_ol]:pl-5 [&_p]:my-1',
      },
    },
    onUpdate: ({ editor: e }) => onChange(e.getHTML()),
  });
  // A template picked after the editor opened replaces its content.
  useEffect(() => {
    if (editor && value !== editor.getHTML()) editor.commands.setContent(value, { emitUpdate: false });
  }, [editor, value]);
  const mark = (active: boolean) => cn(active && 'bg-muted text-fg');
  return (
    <div className={cn('rounded-md border bg-bg', invalid ? 'border-red-500' : 'border-border')}>
      <div className="flex flex-wrap items-center gap-1 border-b border-border px-2 py-1">
        <IconButton
          aria-label="Bold"
          size="sm"
          className={mark(!!editor?.isActive('bold'))}
          onClick={() => editor?.chain().focus().toggleBold().run()}
        >
          <Bold />
        </IconButton>
        <IconButton
          aria-label="Italic"
          size="sm"
          className={mark(!!editor?.isActive('italic'))}
          onClick={() => editor?.chain().focus().toggleItalic().run()}
        >
          <Italic />
        </IconButton>
        <IconButton
          aria-label="Bulleted list"
          size="sm"
          className={mark(!!editor?.isActive('bulletList'))}
          onClick={() => editor?.chain().focus().toggleBulletList().run()}
        >
          <List />
        </IconButton>
        <IconButton
          aria-label="Numbered list"
          size="sm"
          className={mark(!!editor?.isActive('orderedList'))}
          onClick={() => editor?.chain().focus().toggleOrderedList().run()}
        >
          <ListOrdered />
        </IconButton>
        <Select
          size="sm"
          className="ml-auto w-56"
          aria-label="Insert a placeholder"
          placeholder="Insert a placeholder…"
          value=""
          options={BROADCAST_PLACEHOLDERS.map((p) => ({ value: p.key, label: p.label }))}
          onValueChange={(key) => editor?.chain().focus().insertContent(`{{${key}}}`).run()}
        />
      </div>
      <EditorContent editor={editor} />
    </div>
  );
}
