import spriteUrl from "./sprite.svg?url&no-inline";

/**
 * Every icon is one `<svg><use href="…/sprite.svg#id"/></svg>`: the drawings live once, in a
 * cached asset (tests/tools/icon-sprite.mjs builds it from Cairn's glyphs and the lucide icons we
 * use), not in every row's markup nor in the JavaScript. They take `currentColor`, and are
 * decorative: the control or the text next to them names them.
 */
export function SpriteIcon({ id, size = 14, className }: { id: string; size?: number; className?: string }) {
  return (
    <svg width={size} height={size} aria-hidden="true" className={className}>
      <use href={`${spriteUrl}#${id}`} />
    </svg>
  );
}

export type IconProps = { size?: number; className?: string; "aria-hidden"?: boolean | "true" | "false" };
export type LucideIcon = (props: IconProps) => React.JSX.Element;

/** A lucide icon of the sprite, with lucide-react's props (`size`, `className`). */
function icon(id: string): LucideIcon {
  return function Icon({ size, className }: IconProps) {
    return <SpriteIcon id={id} size={size} className={className} />;
  };
}

export const Archive = icon("archive");
export const ArrowLeft = icon("arrow-left");
export const ArrowUpDown = icon("arrow-up-down");
export const CalendarDays = icon("calendar-days");
export const Check = icon("check");
export const ChevronDown = icon("chevron-down");
export const ChevronRight = icon("chevron-right");
export const CircleDot = icon("circle-dot");
export const CirclePlus = icon("circle-plus");
export const CircleUser = icon("circle-user");
export const Download = icon("download");
/** lucide's "file" (named so as not to hide the DOM's File). */
export const FileIcon = icon("file");
export const FileText = icon("file-text");
export const Gauge = icon("gauge");
export const Inbox = icon("inbox");
export const Kanban = icon("kanban");
export const Link2 = icon("link");
export const List = icon("list");
export const ListFilter = icon("list-filter");
export const ListTree = icon("list-tree");
export const LogOut = icon("log-out");
export const Menu = icon("menu");
export const MessageSquareX = icon("message-square-x");
export const Monitor = icon("monitor");
export const OctagonX = icon("octagon-x");
export const Paperclip = icon("paperclip");
export const Pencil = icon("pencil");
export const Plus = icon("plus");
export const Search = icon("search");
export const Server = icon("server");
export const Settings = icon("settings");
export const Shield = icon("shield");
export const SignalHigh = icon("signal-high");
export const Tag = icon("tag");
export const Unplug = icon("unplug");
export const UserRound = icon("user-round");
export const X = icon("x");
