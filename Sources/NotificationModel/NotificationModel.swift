// NotificationModel
