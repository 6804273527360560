extension NotificationPreview {
    /// The page's style sheet: a lock-screen wallpaper, frosted notification cards in iOS's
    /// proportions, the report below in plain type. System fonts only; nothing is loaded.
    static let style = """
        * { box-sizing: border-box; }
        html { background: #101418; }
        body { margin: 0; padding: 24px 16px 40px; font: 15px/1.33 -apple-system, "SF Pro Text", system-ui, "DejaVu Sans", "Noto Color Emoji", sans-serif; color: #111; }
        .phone { max-width: 402px; margin: 0 auto; padding: 20px 12px 24px; border-radius: 36px;
          background: linear-gradient(160deg, #5b7fbf 0%, #8d6fb8 45%, #d98f7a 100%); }
        .phone.suppressed section { opacity: .45; filter: grayscale(.6); }
        .label { margin: 4px 6px 8px; font-size: 12px; font-weight: 600; letter-spacing: .06em; text-transform: uppercase; color: rgba(255,255,255,.85); }
        section + section { margin-top: 22px; }
        .notification { background: rgba(246,246,248,.82); backdrop-filter: blur(24px); border-radius: 22px; box-shadow: 0 2px 14px rgba(0,0,0,.18); overflow: hidden; }
        .banner { display: flex; align-items: flex-start; gap: 10px; padding: 12px 14px; }
        .icon { flex: none; display: flex; align-items: center; justify-content: center; color: #fff; font-weight: 700;
          background: linear-gradient(145deg, #3a8dff, #1b5fd1); }
        .icon.large { width: 38px; height: 38px; border-radius: 9px; font-size: 19px; }
        .icon.small { width: 20px; height: 20px; border-radius: 5px; font-size: 11px; }
        .text { flex: 1; min-width: 0; }
        .header { display: flex; align-items: baseline; gap: 6px; font-size: 13px; color: #6b6b70; }
        .header .app { font-weight: 600; color: #3c3c43; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        .header .time { margin-left: auto; flex: none; }
        .level { font-size: 11px; font-weight: 700; text-transform: uppercase; letter-spacing: .03em; color: #c7660c; }
        .level.critical { color: #d70015; }
        .title { font-weight: 600; margin-top: 1px; }
        .subtitle { font-weight: 600; font-size: 14px; }
        .body { white-space: pre-wrap; overflow-wrap: anywhere; }
        .title, .subtitle { overflow-wrap: anywhere; }
        .body.clamped { display: -webkit-box; -webkit-line-clamp: 4; -webkit-box-orient: vertical; overflow: hidden; }
        .thumbnail { flex: none; width: 40px; height: 40px; margin-top: 2px; border-radius: 8px; background-color: #d1d1d6; background-repeat: no-repeat; }
        .thumbnail.media, .thumbnail.missing { display: flex; align-items: center; justify-content: center; color: #48484a; font-size: 18px; }
        .large { width: 100%; background-size: contain; background-repeat: no-repeat; background-position: center; background-color: #000; max-height: 560px; }
        .media-placeholder { display: flex; flex-direction: column; align-items: center; justify-content: center; gap: 4px; height: 150px;
          background: #2c2c2e; color: #f2f2f7; font-weight: 600; font-size: 17px; }
        .media-placeholder small { font-weight: 400; font-size: 12px; color: #aeaeb2; max-width: 90%; overflow-wrap: anywhere; text-align: center; }
        .expanded-text { padding: 12px 14px 14px; }
        .expanded-header { display: flex; align-items: center; gap: 6px; margin-bottom: 4px; }
        .expanded-header .header { flex: 1; }
        .actions { margin-top: 8px; background: rgba(246,246,248,.82); backdrop-filter: blur(24px); border-radius: 16px; overflow: hidden; }
        .action { padding: 12px 16px; font-size: 17px; color: #111; }
        .action + .action { border-top: 1px solid rgba(60,60,67,.22); }
        .action.destructive { color: #ff3b30; }
        .action small { display: block; font-size: 12px; color: #8e8e93; }
        .notice, .note { margin: 0 4px 14px; padding: 8px 12px; border-radius: 12px; background: rgba(0,0,0,.35); color: #fff; font-size: 13px; }
        .note { margin: 8px 4px 0; }
        code { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: .92em; }
        .report { max-width: 402px; margin: 22px auto 0; color: #e5e5ea; font-size: 13px; }
        .report h2 { font-size: 12px; text-transform: uppercase; letter-spacing: .06em; color: #8e8e93; margin: 16px 0 6px; }
        .outcome { display: inline-block; padding: 2px 8px; border-radius: 6px; font-weight: 600; }
        .outcome.completed { background: #1f7a3a; }
        .outcome.fallback { background: #a65c00; }
        .outcome.suppressed { background: #48484a; }
        .reason { margin: 6px 0; overflow-wrap: anywhere; }
        .muted { color: #8e8e93; }
        table.log { width: 100%; border-collapse: collapse; }
        .log th { text-align: left; color: #8e8e93; font-weight: 500; }
        .log td, .log th { padding: 3px 6px 3px 0; vertical-align: top; overflow-wrap: anywhere; }
        .log td:first-child, .log th:first-child { width: 52px; }
        .log td:last-child, .log th:last-child { width: 52px; padding-right: 0; }
        .log tr.warn td:first-child { color: #ffd60a; }
        .log tr.error td:first-child { color: #ff453a; }
        .fields { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0; }
        .fields dt { color: #8e8e93; }
        .fields dd { margin: 0; overflow-wrap: anywhere; }
        .stats { color: #8e8e93; margin-top: 14px; }

        """
}
