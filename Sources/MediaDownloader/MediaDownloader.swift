// MediaDownloader
