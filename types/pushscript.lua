---@meta pushscript
-- Type definitions of the PushScript script API (docs/script-api.md) for lua-language-server
-- (LuaCATS annotations). Nothing here runs: the host provides these names in every
-- script's environment. Point the editor at this folder, e.g. with a .luarc.json beside
-- your scripts:
--
--   {
--     "$schema": "https://raw.githubusercontent.com/LuaLS/vscode-lua/master/setting/schema.json",
--     "runtime.version": "Lua 5.4",
--     "workspace.library": ["path/to/pushscript/types"],
--     "diagnostics.globals": ["didReceive", "bestAttempt", "afterDelivery"],
--     "runtime.builtin": { "io": "disable", "package": "disable", "debug": "disable" }
--   }
--
-- The sandbox also lacks package, dofile, loadfile, collectgarbage, string.dump,
-- coroutine.close, os.exit, os.getenv and os.execute: `pushscript check` reports their use.
-- `require` loads modules beside the script, in --lib folders, and the modules shipped with
-- PushScript, which pushscript/providers.lua (in this folder) describes.

-- MARK: Handlers

---Required. Called once per notification with the request and its mutable content; returning
---delivers `content` (Apple's content handler). The return value is ignored.
---@param request Request
---@param content Content
function didReceive(request, content) end

---Optional. Runs when didReceive did not finish (an error, a limit, or the deadline, like
---`serviceExtensionTimeWillExpire`), with a small budget of its own. The content as it then
---stands is delivered. `request` is the read-only request didReceive got. A reason message too
---big for the state is cut to its first 1,024 bytes, followed by "… (cut from N bytes)".
---@param content Content
---@param reason Reason
---@param request Request
function bestAttempt(content, reason, request) end

---Optional. Runs after the content was handed over (after didReceive returned, or after
---bestAttempt), in the same state, with 50 ms of CPU of its own and what is left of the
---deadline: send delivery receipts here. `content` is read-only (what was delivered: writes
---and methods raise "content is read-only after delivery"); http.post, store and log work,
---download gives nil, "not allowed: ...". What it does never changes or delays the delivery.
---@param request Request
---@param content Content
function afterDelivery(request, content) end

---Why didReceive did not finish.
---@class Reason
---@field kind "error"|"cpu"|"memory"|"time"
---@field message string

-- MARK: Request

---The request (read-only: writing to it, or setmetatable on it, raises an error).
---@class Request
---@field identifier string The `apns-id` if given, else a generated UUID string.
---@field app string? The app's bundle identifier, or nil.
---@field content ContentSnapshot A read-only snapshot of the original content.
---@field locales string[] The device's preferred languages, most preferred first (`{"en"}` when none).

---The fields of a notification's content, as `request.content` holds them (read-only).
---@class ContentSnapshot
---@field title string `""` when absent.
---@field subtitle string `""` when absent.
---@field body string `""` when absent.
---@field badge integer? An integer >= 0, or nil to leave the badge alone.
---@field sound string|SoundSpec|nil A name (`"default"`), a critical sound, or nil for none.
---@field categoryIdentifier string The category that picks the buttons (`aps.category`).
---@field threadIdentifier string The thread that groups notifications (`aps.thread-id`).
---@field targetContentIdentifier string? The window or scene to bring forward.
---@field interruptionLevel "passive"|"active"|"time-sensitive"|"critical"
---@field relevanceScore number 0…1.
---@field filterCriteria string? The Focus filter it belongs to.
---@field launchImageName string `aps.alert.launch-image`.
---@field summaryArgument string `aps.alert.summary-arg`.
---@field summaryArgumentCount integer `aps.alert.summary-arg-count`.
---@field userInfo table<string, any> The whole payload, `aps` included.
---@field attachments Attachment[] The attachments, in the order attached.

---A sound in its dictionary form.
---@class SoundSpec
---@field name string
---@field critical boolean?
---@field volume number? 0…1.

-- MARK: Content

---The content being delivered (`UNMutableNotificationContent`). Every assignment is checked
---(`content.badge = -1` and `content.titel = "x"` raise errors) and visible to the host at
---once. `attachments` cannot be assigned; `userInfo` is a live table.
---@class Content: ContentSnapshot
local Content = {}

---Attaches a file that `download` returned, or `{path=...}` of a file in the host's media
---directory, checked against Apple's attachment types and sizes. The media directory holds
---the files the app ships or keeps for its scripts (`--media-dir DIR`,
---`HostConfiguration.mediaDirectory`); a relative `path` is taken inside it. A file that a
---media answer names (`--media`, a fixture's `media`) may be attached too; anything else is
---`nil, "not allowed: …"`.
---@param file File|{path: string}
---@param options AttachOptions?
---@return Attachment? attachment
---@return string? err
function Content:attach(file, options) end

---Empties the attachments.
function Content:removeAttachments() end

---Asks for the notification not to be shown (iOS 13.3+ filtering).
function Content:suppress() end

---@class AttachOptions
---@field identifier string? Default: a generated UUID string.
---@field thumbnailHidden boolean?
---@field thumbnailClippingRect {x: number, y: number, width: number, height: number}? Each 0…1.
---@field thumbnailTime number? Seconds (audio and video).

---An attachment, as `attach` returns it and `content.attachments` lists it.
---@class Attachment
---@field identifier string
---@field type string The UTI: `public.jpeg`, `public.png`, `com.compuserve.gif`, `public.mp3`, `public.mpeg-4`, …
---@field url string A `file://` URL.
---@field size integer Bytes.
---@field options AttachOptions?

-- MARK: Downloads

---A downloaded file.
---@class File
---@field path string Where it is, in the host's attachment directory.
---@field url string The URL it came from.
---@field type string? The UTI decided from its bytes, nil if unknown.
---@field mime string? The MIME type of that type.
---@field size integer Bytes.

---@class DownloadOptions
---@field timeout number? Seconds; never past the request's deadline.
---@field maxBytes integer? Default: the largest attachment maximum of `kinds` (image 10 MB, audio 5 MB, video 50 MB), 50 MB without `kinds`; checked while the body streams.
---@field kinds ("image"|"audio"|"video")[]? Refuse other types.

---Streams an https resource to a file. `err` starts with `timeout`, `too large`, `http NNN`,
---`unsupported type`, `not allowed`, `network` or `deadline`. Options are named: a positional
---entry (`{"image"}`) raises an error, as an unknown name does.
---@param url string
---@param options DownloadOptions?
---@return File? file
---@return string? err
function download(url, options) end

---Downloads in parallel: `files[i]` or `errors[i]` is set for each `urls[i]`.
---@param urls string[]
---@param options DownloadOptions?
---@return (File|nil)[] files
---@return (string|nil)[] errors
function downloadAll(urls, options) end

-- MARK: Categories

---An action (button) of a category.
---@class CategoryAction
---@field identifier string
---@field title string
---@field options ("foreground"|"destructive"|"authenticationRequired")[]?
---@field textInput {buttonTitle: string, placeholder: string}?
---@field icon {system: string}|{template: string}? `UNNotificationActionIcon` (iOS 15+): an SF Symbol (`{system = "trash"}`) or an image of the app's asset catalog (`{template = "reply-icon"}`).

---A category (`UNNotificationCategory`).
---@class Category
---@field identifier string
---@field actions CategoryAction[]?
---@field options ("customDismissAction"|"allowInCarPlay"|"hiddenPreviewsShowTitle"|"hiddenPreviewsShowSubtitle"|"allowAnnouncement")[]?
---@field intentIdentifiers string[]? e.g. `{"INSendMessageIntentIdentifier"}`.
---@field hiddenPreviewsBodyPlaceholder string? Shown instead of the body when previews are hidden, e.g. `"%u new messages"`.
---@field categorySummaryFormat string? The summary of a group, e.g. `"%u more messages from %@"`.

---The app's categories: those it declares (never removed) and those its scripts register.
---An app keeps at most 128 registered ones (as OneSignal does); registering one more removes
---the oldest registered one, and a host log entry says which.
categories = {}

---@param id string
---@return boolean
function categories.has(id) end

---@param id string
---@return Category?
function categories.get(id) end

---@return string[]
function categories.list() end

---Registers (or replaces) a category; it outlives the request. A category may hold at most
---16 KiB of identifiers, titles and options (a larger one raises an error).
---The result lists what a request registered under `categories` (whole) and
---`registeredCategories` (identifiers).
---@param category Category
function categories.register(category) end

---Removes a registered category. Declared categories are the app's own and stay.
---@param id string
---@return boolean removed
---@return string? err Why nothing was removed.
function categories.remove(id) end

---The localized category: `base_locale`, else `base_language`, else `base_fallback` (default
---`"en"`), else `base`; `found` tells whether the identifier returned is registered.
---@param base string
---@param locale string
---@param fallback string?
---@return string identifier
---@return boolean found
function categories.localized(base, locale, fallback) end

-- MARK: Locale

locale = {}

---The best of `available` for the preferred languages (default `request.locales`): an exact
---match, then the bare language, then another region of it; nil if none matches. Linear in
---the number of tags.
---@param available string[]
---@param preferred string[]?
---@return string?
function locale.best(available, preferred) end

-- MARK: Data

json = {}

---Stands for JSON null.
---@type userdata
json.null = nil

---`nil, "too large: ..."` (before parsing) when the value could not fit in the memory the
---script has left.
---@param s string
---@return any value
---@return string? err
function json.decode(s) end

---A table with keys 1..n is an array; a sparse one (`{[2]="b"}`) is refused as not a sequence.
---@param value any
---@return string? json
---@return string? err
function json.encode(value) end

base64 = {}

---Standard alphabet, with padding.
---@param s string
---@return string
function base64.encode(s) end

---Standard or URL-safe alphabet, padding optional.
---@param s string
---@return string? bytes
---@return string? err
function base64.decode(s) end

hex = {}

---Lower case.
---@param s string
---@return string
function hex.encode(s) end

---Either case.
---@param s string
---@return string? bytes
---@return string? err
function hex.decode(s) end

-- MARK: Crypto

crypto = {}

---@class DecryptRequest
---@field alg "aes-128-gcm"|"aes-256-gcm"|"chacha20-poly1305"
---@field key string Binary.
---@field nonce string Binary.
---@field ciphertext string Binary.
---@field tag string Binary.
---@field aad string? Binary.

---A wrong key or tampered data gives `nil, "authentication failed"`.
---@param request DecryptRequest
---@return string? plaintext
---@return string? err
function crypto.decrypt(request) end

---@param s string
---@return string digest Binary, 32 bytes.
function crypto.sha256(s) end

---@param key string
---@param s string
---@return string mac Binary, 32 bytes.
function crypto.hmacSHA256(key, s) end

keys = {}

---The binary key the host holds under `name` (`--key NAME=BASE64`), or nil.
---@param name string
---@return string?
function keys.get(name) end

---Functions the embedding app registers (`host.register(hook: "NAME")`). A hook takes and
---returns strings, numbers, booleans, nil and tables of them.
---@type table<string, fun(...: any): ...: any>
hooks = {}

-- MARK: Store

---A small key-value store per app that outlives requests (at most 64 KB per app).
store = {}

---@param key string
---@return string|number|boolean|nil
function store.get(key) end

---nil deletes.
---@param key string
---@param value string|number|boolean|nil
function store.set(key, value) end

---Adds `by` to the number at `key` (0 when unset) and returns the new number, held within
---`bounds` when given: `content.badge = store.increment("badge", -1, {min = 0})`. Atomic, the
---bounds included, even when requests of one app, or processes sharing `--state`, run at once.
---@param key string
---@param by number? Default 1.
---@param bounds {min: number?, max: number?}?
---@return number
function store.increment(key, by, bounds) end

-- MARK: Log

---Adds `{level=, message=}` to the result's logs (`string.format` rules).
log = {}

---@param format string
---@param ... any
function log.debug(format, ...) end

---@param format string
---@param ... any
function log.info(format, ...) end

---@param format string
---@param ... any
function log.warn(format, ...) end

---@param format string
---@param ... any
function log.error(format, ...) end

-- MARK: Modules

---Loads a module and returns its value (and the file it came from). `require "pushscript.NAME"`
---loads a module shipped with PushScript (`pushscript.providers`); any other name is `name.lua`,
---dots as folders, from the script's folder or a library folder (`--lib DIR`). Names are parts
---of letters, digits, `_` and `-` joined by dots. The module's chunk runs once per request that
---requires it: what a request sets in it is gone by the next.
---@param name string
---@return any value
---@return string file
function require(name) end

-- MARK: HTTP

---Delivery receipts: posts to the hosts the host allows (`--allow-post`).
http = {}

---@class PostOptions
---@field method? "POST"|"PUT" Default "POST".
---@field contentType? string Default "application/json".
---@field headers? table<string, string> At most 16, one line each; not Host, Content-Length, Content-Type, Cookie.
---@field timeout? number Seconds > 0; never past the request's deadline.

---Posts `body` (at most 64 KB) to an `https` URL of an allowed host; no redirects, within the
---deadline, never from bestAttempt (from afterDelivery, after the content was handed over).
---Returns the status and the response body (at most 64 KB), or nil and an error starting with
---`not allowed`, `too large`, `too much recorded`, `timeout`, `network` or `deadline`.
---@param url string
---@param body string
---@param options? PostOptions
---@return integer|nil status
---@return string responseBody_or_error
function http.post(url, body, options) end
